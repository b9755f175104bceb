// GetContractTimeline / ExportContractTimeline: every event filed under a contract (its offers,
// results, reports, disputes, receipts, holds, artifacts…) in the order they occurred.
import { status, type ServiceError } from '@grpc/grpc-js';
import type { EventEnvelope } from '@exchange/events';
import { errorInfoFromGrpc } from '@exchange/platform';
import { newParties, operatorFixtures, publicFixtures, type Parties } from './ingest-fixtures';
import { AGENT, failureCode, linesOf, OPERATOR, readExport, startFeedsHarness, type FeedsHarness } from './feeds.harness';

let h: FeedsHarness;
let p: Parties;
let seeded: EventEnvelope[];
let expected: string[];

beforeAll(async () => {
  h = await startFeedsHarness('telemetry_timelines');
  p = newParties('timeline');
  const other = newParties('other');
  // Recorded out of order (newest first, as a consumer catching up may see them), interleaved
  // with another contract's events.
  seeded = [...Object.values(publicFixtures(p)), ...operatorFixtures(p)].reverse();
  const all = [...Object.values(publicFixtures(other)), ...seeded, ...operatorFixtures(other)];
  await h.seed(all);
  const { rows } = await h.sql.query<{ event_id: string }>('SELECT event_id FROM events WHERE contract_id = $1', [p.contractId]);
  const filed = new Set(rows.map((r) => r.event_id));
  // By occurred_at; ties in the order recorded (seq). (Ingest decides what is filed under the
  // contract: the fixtures' artifact ref is the same for both contracts, so the other's delivery
  // is filed under the first upload's contract.)
  expected = all
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => filed.has(e.id))
    .sort((a, b) => Date.parse(a.e.occurred_at) - Date.parse(b.e.occurred_at) || a.i - b.i)
    .map(({ e }) => e.id);
});
afterAll(async () => {
  await h?.stop();
});

async function wholeTimeline(contractId: string, limit: number) {
  const out: Array<{ eventId: string; type: string; occurredAt?: Date }> = [];
  let cursor = '';
  for (;;) {
    const res = await h.client.getContractTimeline({ actor: OPERATOR, contractId, page: { limit, cursor } });
    expect(res.contractId).toBe(contractId);
    expect(res.events.length).toBeLessThanOrEqual(limit);
    out.push(...res.events);
    cursor = res.page?.nextCursor ?? '';
    if (cursor === '') return out;
  }
}

describe('GetContractTimeline', () => {
  it('every event of the contract and of its offers, results, reports, disputes, receipts and artifacts, in occurred order', async () => {
    const events = await wholeTimeline(p.contractId, 200);
    expect(events.map((e) => e.eventId)).toEqual(expected);
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      'exchange.market.contract.created',
      'exchange.market.contract.settled',
      'exchange.market.offer.submitted',
      'exchange.market.offer.awarded',
      'exchange.market.result.submitted',
      'exchange.market.verification.submitted',
      'exchange.market.dispute.opened',
      'exchange.market.dispute.resolved',
      'exchange.wallet.hold.created',
      'exchange.wallet.receipt.issued',
      'exchange.registry.artifact.uploaded',
    ]) {
      expect(types).toContain(t);
    }
    const times = events.map((e) => e.occurredAt!.getTime());
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
    // Recorded newest first, read oldest first.
    expect(events[0].type).toBe('exchange.market.contract.created');
  });

  it('pages on (occurred_at, seq): small pages give the same events once each', async () => {
    expect((await wholeTimeline(p.contractId, 4)).map((e) => e.eventId)).toEqual(expected);
    expect((await wholeTimeline(p.contractId, 1)).map((e) => e.eventId)).toEqual(expected);
  });

  it('shows the operator event complete (the private buyer, actors)', async () => {
    const res = await h.client.getContractTimeline({ actor: OPERATOR, contractId: p.contractId, page: { limit: 1, cursor: '' } });
    expect(res.events[0].actor).toBe(p.buyer);
    expect(JSON.parse(res.events[0].dataJson).restricted).toEqual({ buyerId: p.buyer });
  });

  it('unknown contract 404; agent 403; bad id 400', async () => {
    expect(await failureCode(h.client.getContractTimeline({ actor: OPERATOR, contractId: 'ctr_never_seen', page: undefined }))).toBe('contract_not_found');
    expect(await failureCode(h.client.getContractTimeline({ actor: AGENT, contractId: p.contractId, page: undefined }))).toBe('operator_required');
    expect(await failureCode(h.client.getContractTimeline({ actor: OPERATOR, contractId: 'ctr/../x', page: undefined }))).toBe('validation_failed');
    expect(await failureCode(h.client.getContractTimeline({ actor: OPERATOR, contractId: p.contractId, page: { limit: 5, cursor: 'bad' } }))).toBe('invalid_cursor');
  });
});

describe('ExportContractTimeline', () => {
  it('streams the whole timeline as JSONL, in the same order', async () => {
    const lines = linesOf(await readExport(h.streams.exportContractTimeline({ actor: OPERATOR, contractId: p.contractId }), 5));
    expect(lines.map((l) => l['id'])).toEqual(expected);
    expect(lines.every((l) => l['contract_id'] === p.contractId)).toBe(true);
  });

  it('refuses before any byte: unknown contract 404, agent 403', async () => {
    const codeOf = async (req: { actor: typeof OPERATOR; contractId: string }) => {
      try {
        await readExport(h.streams.exportContractTimeline(req));
        return 'ok';
      } catch (err) {
        const info = errorInfoFromGrpc(err as ServiceError);
        return `${info.grpcCode}:${info.code}`;
      }
    };
    expect(await codeOf({ actor: OPERATOR, contractId: 'ctr_never_seen' })).toBe(`${status.NOT_FOUND}:contract_not_found`);
    expect(await codeOf({ actor: AGENT, contractId: p.contractId })).toBe(`${status.PERMISSION_DENIED}:operator_required`);
  });
});
