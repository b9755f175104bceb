// RecordMatchingSignal and GetMatchingBoosts over gRPC against a real database: a new signal
// writes its row and its outbox event together, a repeat writes nothing and answers the stored
// one, and boosts follow README "Matching signals" (weights 1/3/6/10 halving every 7 days, summed,
// boost = 1 − e^(−score/10), signals of the last 30 days, candidates with signals only).
import { newId } from '@exchange/platform';
import { telemetryV1 } from '@exchange/proto';
import { agentActor, failureCode, OPERATOR, startReportsHarness, type ReportsHarness } from './reports-seed';

const NOW = new Date('2026-10-21T12:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(NOW.getTime() - d * DAY);
const T = telemetryV1.SignalType;
const VIEWER = agentActor('acme:agent:viewer');
const SA = 'acme:agent:seller-a';
const SB = 'acme:agent:seller-b';
const SC = 'acme:agent:seller-c';
const SD = 'acme:agent:seller-d';
const CX = newId('ctr');
const CY = newId('ctr');

let h: ReportsHarness;

beforeAll(async () => {
  h = await startReportsHarness('telemetry_signals', NOW);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

const record = (over: Partial<telemetryV1.RecordMatchingSignalRequest>) =>
  h.client.recordMatchingSignal(telemetryV1.RecordMatchingSignalRequest.fromPartial({ actor: VIEWER, signal: T.SIGNAL_TYPE_IMPRESSION, contractId: CX, sellerId: SA, ...over }));

async function outboxEventsOf(signalId: string): Promise<Array<{ type: string; payload: { subject_id: string; data: { signal: Record<string, unknown> } } }>> {
  const { rows } = await h.sql.query("SELECT type, payload FROM outbox_events WHERE payload->'data'->'signal'->>'signalId' = $1", [signalId]);
  return rows;
}

describe('RecordMatchingSignal', () => {
  it('should record a new signal with its outbox event, and a repeat as a duplicate that writes nothing', async () => {
    const first = await record({ signal: T.SIGNAL_TYPE_CLICK, requestId: 'req-1', listingId: newId('lst'), occurredAt: daysAgo(2) });
    expect(first.duplicate).toBe(false);
    expect(first.signal).toEqual({
      signalId: expect.stringMatching(/^sig_/),
      signal: T.SIGNAL_TYPE_CLICK,
      recordedBy: 'acme:agent:viewer',
      contractId: CX,
      sellerId: SA,
      listingId: expect.stringMatching(/^lst_/),
      requestId: 'req-1',
      occurredAt: daysAgo(2),
      recordedAt: NOW,
    });
    const events = await outboxEventsOf(first.signal!.signalId);
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('exchange.telemetry.matching_signal.recorded');
    expect(events[0].payload.subject_id).toBe(first.signal!.signalId);
    expect(events[0].payload.data.signal).toEqual(telemetryV1.MatchingSignal.toJSON(first.signal!));

    const again = await record({ signal: T.SIGNAL_TYPE_CLICK, requestId: 'req-1', occurredAt: daysAgo(1) });
    expect(again).toEqual({ signal: first.signal, duplicate: true });
    const { rows } = await h.sql.query('SELECT count(*)::int AS n FROM matching_signals WHERE contract_id = $1 AND signal = $2', [CX, 'click']);
    expect(rows[0].n).toBe(1);
    expect(await outboxEventsOf(first.signal!.signalId)).toHaveLength(1);
  });

  it('should record the same pair again for another request or another recorder', async () => {
    const a = await record({ signal: T.SIGNAL_TYPE_CLICK, requestId: 'req-2', sellerId: SD, occurredAt: daysAgo(25) });
    const b = await record({ actor: OPERATOR, signal: T.SIGNAL_TYPE_CLICK, requestId: 'req-2', sellerId: SD, occurredAt: daysAgo(25) });
    expect([a.duplicate, b.duplicate, b.signal?.recordedBy]).toEqual([false, false, '']);
    expect(a.signal?.signalId).not.toBe(b.signal?.signalId);
  });

  it('should default occurred_at to now', async () => {
    const r = await record({ signal: T.SIGNAL_TYPE_SHORTLIST, contractId: newId('ctr') });
    expect(r.signal?.occurredAt).toEqual(NOW);
  });

  it('should refuse a missing kind, malformed ids, a time out of range and no actor', async () => {
    expect(await failureCode(record({ signal: T.SIGNAL_TYPE_UNSPECIFIED }))).toEqual({ code: 'validation_failed', details: { field: 'signal' } });
    expect(await failureCode(record({ contractId: 'ctr_123' }))).toEqual({ code: 'validation_failed', details: { field: 'contract_id' } });
    expect(await failureCode(record({ sellerId: 'seller-a' }))).toEqual({ code: 'validation_failed', details: { field: 'seller_id' } });
    expect((await failureCode(record({ occurredAt: new Date(NOW.getTime() + 1) }))).code).toBe('invalid_signal_time');
    expect((await failureCode(record({ occurredAt: new Date(daysAgo(30).getTime() - 1) }))).code).toBe('invalid_signal_time');
    expect((await failureCode(record({ actor: undefined }))).code).toBe('forbidden');
  });
});

describe('GetMatchingBoosts', () => {
  beforeAll(async () => {
    // CX: SA award now (10) + the click of 2 days ago (3 × 0.5^(2/7)) + a click 7 days ago (1.5);
    // SB an impression 14 days ago (0.25); SC only a shortlist 31 days old (written before the
    // 30-day limit, straight into the table: it no longer counts); SD the clicks 25 days ago.
    await record({ signal: T.SIGNAL_TYPE_AWARD, occurredAt: NOW });
    await record({ signal: T.SIGNAL_TYPE_CLICK, requestId: 'req-old', occurredAt: daysAgo(7) });
    await record({ sellerId: SB, occurredAt: daysAgo(14) });
    await h.sql.query(
      "INSERT INTO matching_signals (signal_id, signal, recorded_by, contract_id, seller_id, request_id, occurred_at) VALUES ($1, 'shortlist', '', $2, $3, '', $4)",
      [newId('sig'), CX, SC, daysAgo(31)],
    );
    // CY: SA an impression a day ago.
    await record({ contractId: CY, occurredAt: daysAgo(1) });
  });

  const boost = (score: number) => 1 - Math.exp(-score / 10);

  it('should boost the sellers of a contract that have signals, in the order asked', async () => {
    const { boosts } = await h.client.getMatchingBoosts({ contractId: CX, sellerIds: [SC, SB, SA, 'acme:agent:nobody', SD], contractIds: [] });
    expect(boosts.map((b) => b.candidateId)).toEqual([SB, SA, SD]);
    expect(boosts[0].boost).toBeCloseTo(boost(0.25), 12);
    expect(boosts[1].boost).toBeCloseTo(boost(10 + 3 * Math.pow(0.5, 2 / 7) + 1.5), 12);
    // SD: two clicks 25 days ago (the agent's and the operator's): 2 × 3 × 0.5^(25/7)
    expect(boosts[2].boost).toBeCloseTo(boost(6 * Math.pow(0.5, 25 / 7)), 12);
  });

  it('should boost the contracts of a seller', async () => {
    const { boosts } = await h.client.getMatchingBoosts({ sellerId: SA, contractIds: [CY, CX, newId('ctr')], sellerIds: [] });
    expect(boosts.map((b) => b.candidateId)).toEqual([CY, CX]);
    expect(boosts[0].boost).toBeCloseTo(boost(Math.pow(0.5, 1 / 7)), 12);
    expect(boosts[1].boost).toBeCloseTo(boost(10 + 3 * Math.pow(0.5, 2 / 7) + 1.5), 12);
  });

  it('should refuse both shapes at once, neither, and over 200 candidates', async () => {
    expect((await failureCode(h.client.getMatchingBoosts({ contractId: CX, sellerId: SA, sellerIds: [], contractIds: [] }))).code).toBe('validation_failed');
    expect((await failureCode(h.client.getMatchingBoosts({ sellerIds: [SA], contractIds: [] }))).code).toBe('validation_failed');
    const many = Array.from({ length: 201 }, (_, i) => `acme:agent:s${i}`);
    expect(await failureCode(h.client.getMatchingBoosts({ contractId: CX, sellerIds: many, contractIds: [] }))).toEqual({ code: 'validation_failed', details: { field: 'seller_ids' } });
    expect((await h.client.getMatchingBoosts({ contractId: CX, sellerIds: many.slice(0, 200), contractIds: [] })).boosts).toEqual([]);
  });
});
