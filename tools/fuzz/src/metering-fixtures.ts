// Metering, billing and gateway proxy resources, so that fuzzed requests reach 2xx: an epoch
// table pricing two fuzz meters over the previous, current and next UTC months; per signing agent
// a signed meter event about itself (and the table among its own objects), a hold of its own as a proxy budget and a recorded call of
// its run; two billed agents with a projection of the previous month attached — one receipt
// emitted (reconciliation has a stored receipt), one left to emit (the emit route's 201).
import type { ExchangeClient } from '@exchange/sdk';
import type { Pools } from './id-pools';
import type { Party, Step } from './fixture-kit';

/** The metering pools setup fills. */
export type MeteringPools = Required<Pick<Pools, 'object' | 'projection' | 'periodReceipt' | 'proxyRun'>>;

export interface MeteringContext {
  /** The epoch table that prices `meters` over `periods`. */
  epoch: string;
  meters: readonly string[];
  /** UTC months `YYYY-MM`: the previous and the current one (both open for meter events). */
  periods: { previous: string; current: string };
  /** (agent, period) pairs with a projection attached: what emit may be asked for. */
  billable: Array<{ agentId: string; period: string }>;
  /** Per signing agent, its own proxy hold, its run and its meter event. */
  actorPools: ReadonlyMap<string, Pools>;
}

export interface MeteringFixtureOptions {
  operator: ExchangeClient;
  /** Signing agents with some CREDIT available (each holds 3 as its proxy budget). */
  parties: Party[];
  pools: MeteringPools;
  namespace: string;
  step: Step;
  now?: Date;
}

export const FUZZ_METERS = ['fuzz.calls', 'fuzz.tokens'] as const;
export const PROXY_HOLD_AMOUNT = '3';
export const SHA_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const month = (d: Date, delta: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + delta, 1));
const periodOf = (d: Date) => d.toISOString().slice(0, 7);

export async function createMeteringFixtures(o: MeteringFixtureOptions): Promise<MeteringContext> {
  const now = o.now ?? new Date();
  const { pools, step, namespace: ns } = o;
  const epoch = `${ns}-epoch`;
  const periods = { previous: periodOf(month(now, -1)), current: periodOf(now) };
  const billable: MeteringContext['billable'] = [];
  const actorPools = new Map<string, Pools>();

  const table = await step('meter epoch table', () =>
    o.operator.metering.createEpochTable({
      epoch,
      effectiveFrom: month(now, -1),
      effectiveTo: month(now, 2),
      prices: { 'fuzz.calls': '0.01', 'fuzz.tokens': '0.0001' },
    }),
  );
  if (table) pools.object.push(table.table.object_id);

  // An event at `at` signed by the party about itself.
  const ingest = (p: Party, at: Date, ref: string) =>
    p.client.metering.ingest({ payload: { meter: 'fuzz.tokens', subject_agent_id: p.agentId, quantity: 100, unit: 'token', occurred_at: at, epoch, ref } });

  for (const p of o.parties) {
    // The table among each signer's own objects too: the operator's table read draws from them (otherwise 1 of many objects).
    const own: Pools = { object: table ? [table.table.object_id] : [], hold: [], proxyRun: [] };
    actorPools.set(p.agentId, own);
    if (table) {
      const event = await step(`meter event of ${p.agentId}`, () => ingest(p, new Date(now.getTime() - 60_000), `${ns}-now`));
      if (event) {
        pools.object.push(event.event.object_id);
        own.object!.push(event.event.object_id);
      }
    }
    const hold = await step(`proxy hold of ${p.agentId}`, () =>
      p.client.wallets.createHold(p.agentId, { amount: PROXY_HOLD_AMOUNT, currency: 'CREDIT', reference: 'fuzz proxy budget', idempotencyKey: `${ns}-proxy-hold-${p.agentId}` }),
    );
    if (!hold) continue;
    own.hold!.push(hold.hold_id);
    const run = `${ns}-run`;
    const call = await step(`proxy call of ${p.agentId}`, () =>
      p.client.gatewayProxy.recordCall({
        agentId: p.agentId,
        runId: run,
        upstream: 'api.fuzz.example',
        operation: 'POST /v1/fuzz',
        cost: '0.01',
        requestSha256: SHA_HEX,
        responseSha256: SHA_HEX,
        status: 200,
        latencyMs: 10,
        holdId: hold.hold_id,
      }),
    );
    if (call) {
      pools.proxyRun.push(run);
      own.proxyRun!.push(run);
    }
  }

  // Two billed agents over the previous month (it has ended: its receipt may be emitted).
  const prevAt = new Date(month(now, -1).getTime() + 86_400_000);
  for (const [i, p] of o.parties.slice(0, 2).entries()) {
    if (!table) break;
    const attached = await step(`billing of ${p.agentId}`, async () => {
      await ingest(p, prevAt, `${ns}-previous`);
      const projection = await o.operator.billing.createProjection(p.agentId, periods.previous);
      pools.projection.push(projection.projection_id);
      return o.operator.billing.attach(projection.projection_id);
    });
    if (!attached) continue;
    if (i === 0) {
      const emitted = await step(`emit of ${p.agentId}`, () => o.operator.billing.emit(p.agentId, periods.previous));
      if (emitted) pools.periodReceipt.push(emitted.receipt.period_receipt_id);
    } else {
      billable.push({ agentId: p.agentId, period: periods.previous });
    }
  }
  return { epoch, meters: FUZZ_METERS, periods, billable, actorPools };
}
