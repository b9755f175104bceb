import { sha256Hex } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { walletV1, walletV1Metering } from '@exchange/proto';
import { startProtoFake } from '@exchange/testing';
import { startHarness, TestAgent, uniqueAgentId, registerAgent, type Harness } from './harness';
import type { FakeWalletLedger } from './fake-wallet-ledger';

// A wallet-ledger fake for the gateway's Metering, Billing and Gateway proxy specs: each RPC
// answers a resource built from its request (so a spec sees what the gateway sent and how it maps
// the answer); `created`/`idempotentReplayed` follow simple rules a spec can steer (an object id
// or key seen before). Business rules (signatures, periods, budgets) live in apps/wallet-ledger.

const M = walletV1Metering;
export const T0 = new Date('2026-11-25T10:00:00.000Z');
export const OBJ = `sha256:${'ab'.repeat(32)}`;
export const PRJ = 'prj_fake-1';
export const PRC = 'prc_fake-1';
export const DOCKET = { docket_id: 'dkt_fake', subject: { agent_id: 'x:agent:y', run_id: 'run-1' }, entries: [], created_at: T0.toISOString(), exchange_pubkey: 'pk', signature: 'sig' };

export function meterEvent(over: Partial<walletV1Metering.MeterEvent> = {}): walletV1Metering.MeterEvent {
  return {
    objectId: OBJ,
    signerAgentId: 'acme:agent:reporter',
    signature: 'sig',
    payloadJson: '{"epoch":"e1","meter":"llm.tokens","occurred_at":"2026-11-25T10:00:00.000Z","quantity":1200,"subject_agent_id":"acme:agent:subject","unit":"token"}',
    meter: 'llm.tokens',
    subjectAgentId: 'acme:agent:subject',
    quantity: '1200',
    unit: 'token',
    occurredAt: T0,
    epoch: 'e1',
    ref: undefined,
    period: '2026-11',
    unitPrice: '0.000125',
    currency: 'CREDIT',
    ingestedAt: T0,
    ...over,
  };
}

export function projection(over: Partial<walletV1Metering.BillingProjection> = {}): walletV1Metering.BillingProjection {
  return {
    projectionId: PRJ,
    agentId: 'acme:agent:subject',
    period: '2026-11',
    status: M.BillingProjectionStatus.BILLING_PROJECTION_STATUS_DRAFT,
    lines: [{ meter: 'llm.tokens', epoch: 'e1', unitPrice: '0.000125', currency: 'CREDIT', quantity: '1200', amount: '0.15', eventCount: '1' }],
    totals: [{ amount: '0.15', currency: 'CREDIT' }],
    items: [{ objectId: OBJ, meter: 'llm.tokens', epoch: 'e1', occurredAt: T0, quantity: '1200', unitPrice: '0.000125', amount: '0.15', currency: 'CREDIT' }],
    eventCount: '1',
    eventsSha256: 'e'.repeat(64),
    computedAt: T0,
    periodReceiptId: undefined,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function periodReceipt(over: Partial<walletV1Metering.PeriodReceipt> = {}): walletV1Metering.PeriodReceipt {
  return {
    periodReceiptId: PRC,
    agentId: 'acme:agent:subject',
    period: '2026-11',
    status: M.PeriodReceiptStatus.PERIOD_RECEIPT_STATUS_DRAFT,
    projectionId: PRJ,
    projection: projection({ status: M.BillingProjectionStatus.BILLING_PROJECTION_STATUS_ATTACHED, periodReceiptId: PRC }),
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export async function startFakeWalletMetering(): Promise<FakeWalletLedger> {
  const seenEvents = new Set<string>();
  const seenKeys = new Set<string>();
  let calls = 0;
  const fake = await startProtoFake(walletV1.WalletLedgerServiceService, {
    ingestMeterEvent(req) {
      const payload = JSON.parse(req.payloadJson) as { meter: string; quantity: number; subject_agent_id: string };
      const objectId = `sha256:${sha256Hex(req.payloadJson)}`;
      const created = !seenEvents.has(objectId);
      seenEvents.add(objectId);
      return {
        event: meterEvent({ objectId, signerAgentId: req.signerAgentId, signature: req.signature, payloadJson: req.payloadJson, meter: payload.meter, subjectAgentId: payload.subject_agent_id, quantity: String(payload.quantity) }),
        created,
      };
    },
    getMeterEvent(req) {
      if (req.viewerAgentId === 'acme:agent:stranger') throw errors.notFound('meter_event', req.objectId);
      return { event: meterEvent({ objectId: req.objectId, ref: 'r-1' }) };
    },
    createMeterEpochTable(req) {
      const prices = Object.fromEntries(req.prices.map((p) => [p.meter, p.unitPrice]));
      const payloadJson = JSON.stringify({ currency: req.currency ?? 'CREDIT', effective_from: req.effectiveFrom?.toISOString(), effective_to: req.effectiveTo?.toISOString(), epoch: req.epoch, prices });
      return {
        table: { objectId: OBJ, epoch: req.epoch, effectiveFrom: req.effectiveFrom, effectiveTo: req.effectiveTo, prices: req.prices, currency: req.currency ?? 'CREDIT', payloadJson, signature: 'sig', signerPublicKey: 'pk', createdAt: T0 },
        created: req.epoch !== 'existing',
      };
    },
    getMeterEpochTable(req) {
      return {
        table: { objectId: req.objectId, epoch: 'e1', effectiveFrom: T0, effectiveTo: new Date(T0.getTime() + 3600_000), prices: [{ meter: 'llm.tokens', unitPrice: '0.000125' }], currency: 'CREDIT', payloadJson: '{"epoch":"e1"}', signature: 'sig', signerPublicKey: 'pk', createdAt: T0 },
      };
    },
    createBillingProjection(req) {
      return { projection: projection({ agentId: req.agentId, period: req.period }) };
    },
    attachBillingProjection(req) {
      return { receipt: periodReceipt({ projectionId: req.projectionId }) };
    },
    emitPeriodReceipt(req) {
      return {
        receipt: periodReceipt({
          agentId: req.agentId,
          period: req.period,
          status: M.PeriodReceiptStatus.PERIOD_RECEIPT_STATUS_EMITTED,
          objectId: OBJ,
          payloadJson: '{"agent_id":"acme:agent:subject","period":"2026-11"}',
          signature: 'sig',
          signerPublicKey: 'pk',
          emittedAt: T0,
        }),
        created: req.period !== '2026-10',
      };
    },
    reconcilePeriodReceipt() {
      return {
        reconciliation: {
          periodReceiptId: PRC,
          agentId: 'acme:agent:subject',
          period: '2026-11',
          consistent: false,
          signatureValid: true,
          differences: [{ kind: M.ReconciliationDifferenceKind.RECONCILIATION_DIFFERENCE_KIND_MISSING, ref: OBJ, receiptJson: '', recomputedJson: '{"quantity":1200}', detail: 'missing' }],
          receiptTotals: [{ amount: '0', currency: 'CREDIT' }],
          recomputedTotals: [{ amount: '0.15', currency: 'CREDIT' }],
          receiptEventCount: '0',
          recomputedEventCount: '1',
          reconciledAt: T0,
        },
      };
    },
    recordProxyCall(req) {
      if (req.cost === '999') throw errors.failedPrecondition('budget_exceeded', 'the call costs more than the budget has left', { limit: '10', spent: '9', remaining: '1', cost: '999' });
      const replay = req.idempotencyKey !== undefined && seenKeys.has(`${req.agentId}|${req.idempotencyKey}`);
      if (req.idempotencyKey !== undefined) seenKeys.add(`${req.agentId}|${req.idempotencyKey}`);
      if (!replay) calls += 1;
      const kind = req.budget?.$case === 'holdId' ? 'hold' : 'mandate';
      return {
        call: {
          callId: 'pxc_fake-1',
          agentId: req.agentId,
          runId: req.runId,
          upstream: req.upstream,
          operation: req.operation,
          cost: req.cost,
          currency: req.currency ?? 'CREDIT',
          requestSha256: req.requestSha256,
          responseSha256: req.responseSha256,
          status: req.status,
          latencyMs: req.latencyMs,
          budgetKind: kind,
          budgetRef: req.budget?.value ?? '',
          idempotencyKey: req.idempotencyKey,
          recordedAt: T0,
        },
        budget: { kind, ref: req.budget?.value ?? '', currency: 'CREDIT', limit: '10', spent: '1', remaining: '9', calls: String(calls) },
        idempotentReplayed: replay,
      };
    },
    exportProxyCasefile() {
      return { docketJson: JSON.stringify(DOCKET), callCount: '0' };
    },
    getProxyMetrics(req) {
      return {
        window: req.window ?? 'all',
        asOf: req.asOf ?? T0,
        rows: [{ agentId: 'acme:agent:subject', upstream: 'api.x', calls: '10', errors: '1', spend: [{ amount: '2.5', currency: 'CREDIT' }], latencyP50Ms: 1, latencyP90Ms: 2, latencyP99Ms: 3, latencyMaxMs: 4 }],
      };
    },
  });
  return Object.assign(fake, { receipts: new Map<string, walletV1.Receipt>() });
}

/** The hooks of a spec file: a harness over this fake and two registered agents. */
export function useMeteringHarness(ready: (h: Harness, fake: FakeWalletLedger, agents: TestAgent[]) => void): void {
  let h: Harness | undefined;
  let fake: FakeWalletLedger | undefined;
  beforeAll(async () => {
    fake = await startFakeWalletMetering();
    h = await startHarness({ wallet: fake });
    const agents = [new TestAgent(uniqueAgentId('reporter')), new TestAgent(uniqueAgentId('other'))];
    for (const a of agents) await registerAgent(h.app, a);
    ready(h, fake, agents);
  });
  afterAll(async () => {
    await h?.close();
    await fake?.stop();
  });
}
