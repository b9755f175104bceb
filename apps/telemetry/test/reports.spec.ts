// The weekly report and the three rollups over gRPC against the seeded history of
// reports-history.ts (real PostgreSQL, events recorded through ingest). Every expected figure is
// worked out by hand from that file's tables; the comments say how. Amounts are decimal strings.
import { telemetryV1 } from '@exchange/proto';
import { history, NOW, S1, C, BP, B1 } from './reports-history';
import { agentActor, failureCode, OPERATOR, startReportsHarness, type ReportsHarness } from './reports-seed';

let h: ReportsHarness;
const at = (s: string) => new Date(`2026-${s}Z`);

beforeAll(async () => {
  h = await startReportsHarness('telemetry_reports', NOW);
  await h.seed(history());
  // Matching signals (occurred_at within 30 days of NOW): three in the default week, two after it.
  const signal = (actor: telemetryV1.Actor, kind: telemetryV1.SignalType, contractId: string, occurredAt: string) =>
    h.client.recordMatchingSignal({ actor, signal: kind, contractId, sellerId: S1, occurredAt: at(occurredAt) });
  const T = telemetryV1.SignalType;
  await signal(agentActor('acme:agent:viewer1'), T.SIGNAL_TYPE_IMPRESSION, C.C1, '10-13T00:00:00.000');
  await signal(agentActor('acme:agent:viewer2'), T.SIGNAL_TYPE_IMPRESSION, C.C1, '10-13T01:00:00.000');
  await signal(agentActor('acme:agent:viewer1'), T.SIGNAL_TYPE_CLICK, C.C1, '10-13T02:00:00.000');
  await signal(OPERATOR, T.SIGNAL_TYPE_SHORTLIST, C.C9, '10-20T00:00:00.000');
  await signal(OPERATOR, T.SIGNAL_TYPE_AWARD, C.C9, '10-20T01:00:00.000');
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

const usd = (amount: string) => ({ amount, currency: 'USD' });
const eur = (amount: string) => ({ amount, currency: 'EUR' });

describe('GetWeeklyReport', () => {
  it('should report the last complete week without sandbox contracts', async () => {
    const { report } = await h.client.getWeeklyReport({ actor: OPERATOR, includeSandbox: false });
    expect(report).toEqual({
      weekStart: '2026-10-12', // NOW is Wednesday 10-21: the last complete week is Mon 10-12 … Mon 10-19
      weekEnd: '2026-10-19',
      // created C1 C2 C3 C4 C5 C8; awarded C1 C2 C3 C4 C8 C11 (10-12T00 is the first instant);
      // delivered C1 C11; settled C1 C2 C11 (C8 settles at 10-19T00, the next week); C7 is sandbox.
      contracts: { created: '6', awarded: '6', delivered: '2', settled: '3', disputed: '2', refunded: '1', split: '1', cancelled: '1', expired: '1' },
      settledVolume: [usd('155')], // 100 + 50 + 5
      medianTimeToSettleMs: '86400000', // of 2h+1ms (C11), 24h (C1), 36h (C2)
      agentsRegistered: '2', // 10-12T00 and 10-16 (10-10 before, 10-19T00 after)
      activeBuyers: '3', // B1, B2 and the private BP (from `restricted`)
      activeSellers: '3', // S1, S2, S3
      checkoutsCreated: '5', // K1 K2 K3 K5 K6 (K4 on 10-20)
      purchases: '3', // K1 K2 K3
      purchaseVolume: [eur('25'), usd('100')], // K3; K1 40 + K2 60
      workflowRunsStarted: '3', // R1 R2 R3
      workflowRunsCompleted: '1', // R1 (R3 completes 10-19T06)
      workflowRunsFailed: '1', // R2
      // data: C1 C2 C4 C5; nlp: C1 C3; vision: C3 C8 (ties by tag)
      topTags: [{ tag: 'data', count: '4' }, { tag: 'nlp', count: '2' }, { tag: 'vision', count: '2' }],
      matchingSignals: { impressions: '2', clicks: '1', shortlists: '0', awards: '0' },
      // 26 contract + 4 dispute + 5 integrity/resale + 4 identity + 8 thread/post + 12 workflows + 13 commerce events
      eventsRecorded: '72',
      includeSandbox: false,
    });
  });

  it('should count sandbox contracts when asked', async () => {
    const { report } = await h.client.getWeeklyReport({ actor: OPERATOR, weekStart: '2026-10-12', includeSandbox: true });
    expect(report?.contracts).toEqual({ created: '7', awarded: '7', delivered: '2', settled: '4', disputed: '2', refunded: '1', split: '1', cancelled: '1', expired: '1' });
    expect(report?.settledVolume).toEqual([{ amount: '7', currency: 'CREDIT' }, usd('155')]);
    expect(report?.medianTimeToSettleMs).toBe('52200000'); // (5h of C7 + 24h) / 2 among 2h+1ms, 5h, 24h, 36h
    expect([report?.activeBuyers, report?.activeSellers]).toEqual(['4', '4']); // + BS, + S4
    expect(report?.topTags).toEqual([{ tag: 'data', count: '5' }, { tag: 'nlp', count: '2' }, { tag: 'vision', count: '2' }, { tag: 'sandbox-tag', count: '1' }]);
    expect(report?.eventsRecorded).toBe('72'); // events are events, sandbox or not
  });

  it('should report the current, unfinished week', async () => {
    const { report } = await h.client.getWeeklyReport({ actor: OPERATOR, weekStart: '2026-10-19', includeSandbox: false });
    expect(report).toEqual({
      weekStart: '2026-10-19',
      weekEnd: '2026-10-26',
      contracts: { created: '2', awarded: '1', delivered: '0', settled: '2', disputed: '0', refunded: '0', split: '0', cancelled: '0', expired: '0' }, // C9 C12; C9; C8 C9
      settledVolume: [eur('20'), usd('30')], // C9; C8
      medianTimeToSettleMs: '88200000', // (24h + 25h) / 2
      agentsRegistered: '1',
      activeBuyers: '2', // B1 (C9), BP (C12)
      activeSellers: '1', // S1
      checkoutsCreated: '1', // K4
      purchases: '1',
      purchaseVolume: [usd('15')],
      workflowRunsStarted: '0',
      workflowRunsCompleted: '1', // R3
      workflowRunsFailed: '0',
      topTags: [{ tag: 'data', count: '1' }, { tag: 'misc', count: '1' }],
      matchingSignals: { impressions: '0', clicks: '0', shortlists: '1', awards: '1' },
      eventsRecorded: '12', // C8 settled, C9 ×3, C12 ×2, state 10-20, registered 10-19, R3 completed, K4 ×2 + its purchase
      includeSandbox: false,
    });
  });

  it('should refuse a week that is not a started Monday, and an agent', async () => {
    expect((await failureCode(h.client.getWeeklyReport({ actor: OPERATOR, weekStart: '2026-10-13', includeSandbox: false }))).code).toBe('invalid_week_start');
    expect((await failureCode(h.client.getWeeklyReport({ actor: OPERATOR, weekStart: '2026-10-26', includeSandbox: false }))).code).toBe('invalid_week_start');
    expect((await failureCode(h.client.getWeeklyReport({ actor: agentActor(B1), includeSandbox: false }))).code).toBe('operator_required');
  });
});

describe('GetMarketIntegrityRollup', () => {
  const rollup = async (window: string, asOf?: Date) => (await h.client.getMarketIntegrityRollup({ actor: OPERATOR, query: { window, asOf } })).rollup;

  it('should count the default 7 days up to now (from 10-14T12:00, exclusive)', async () => {
    expect(await rollup('')).toEqual({
      window: { window: '7d', from: at('10-14T12:00:00.000'), asOf: NOW },
      state: 'normal', // back to normal 10-20
      stateChanges: '2', // 10-16, 10-20
      killSwitchesSet: '1',
      erroneousClears: '1',
      disputesOpened: '2',
      disputesResolved: '2',
      refunds: '1', // C3
      splits: '1', // C4
      buyerAliasUpdates: '1', // C12
      resaleReviewsDecided: '1',
      agentsFrozen: '1',
      agentsUnfrozen: '1',
      // Of the contracts awarded in the window (C8, C9) none was disputed; the two disputes opened in
      // it are of C3 and C4, awarded before it (counting those made this 1).
      disputeRate: 0,
    });
  });

  it('should read the state as of a past instant, over all history', async () => {
    const r = await rollup('all', at('10-16T12:00:00.000'));
    expect(r?.window).toEqual({ window: 'all', asOf: at('10-16T12:00:00.000') });
    expect(r?.state).toBe('halted');
    expect([r?.stateChanges, r?.killSwitchesSet, r?.erroneousClears, r?.disputesOpened, r?.disputesResolved, r?.refunds, r?.splits]).toEqual(['2', '1', '0', '2', '1', '1', '0']);
    // awarded by then: C10 C11 C1 C7 C2 C3 C4, of which C3 and C4 disputed
    expect(r?.disputeRate).toBeCloseTo(2 / 7, 12);
    expect((await rollup('30d'))?.disputeRate).toBeCloseTo(2 / 9, 12); // + C8, C9
  });

  it('should be normal before any change, the window end inclusive', async () => {
    const r = await rollup('1h', at('10-12T00:00:00.000'));
    expect([r?.state, r?.stateChanges, r?.disputeRate]).toEqual(['normal', '0', 0]); // C11 awarded at 10-12T00:00 exactly
  });

  it('should refuse an unknown window, a future as_of and an agent', async () => {
    expect(await failureCode(h.client.getMarketIntegrityRollup({ actor: OPERATOR, query: { window: 'weekly' } }))).toEqual({ code: 'validation_failed', details: { field: 'window' } });
    expect(await failureCode(h.client.getMarketIntegrityRollup({ actor: OPERATOR, query: { window: '1d', asOf: new Date(NOW.getTime() + 1000) } }))).toEqual({
      code: 'validation_failed',
      details: { field: 'as_of' },
    });
    expect((await failureCode(h.client.getMarketIntegrityRollup({ actor: agentActor(BP), query: { window: '7d' } }))).code).toBe('operator_required');
  });
});

describe('GetBytesToAtomsRollup', () => {
  const rollup = async (window: string, asOf?: Date) => (await h.client.getBytesToAtomsRollup({ actor: OPERATOR, query: { window, asOf } })).rollup;

  it('should split 30 days of purchases by origin and merchant', async () => {
    expect(await rollup('30d')).toEqual({
      window: { window: '30d', from: at('09-21T12:00:00.000'), asOf: NOW },
      purchases: '4',
      volume: [eur('25'), usd('115')], // K3; K1 40 + K2 60 + K4 15
      fromContracts: '2', // K1, K4
      fromContractsVolume: [usd('55')],
      fromWorkflows: '1', // K2 names run R1 (and its shard contract): a workflow's
      fromWorkflowsVolume: [usd('60')],
      originatedShare: 0.75,
      merchants: [
        { merchantDomain: 'shop.example', purchases: '2', volume: [usd('100')] },
        { merchantDomain: 'sandbox-merchant.local', purchases: '1', volume: [usd('15')] }, // K3 has no origin
      ],
    });
  });

  it('should take 7 days, 1 hour, and nothing', async () => {
    const week = await rollup('7d'); // K3 10-15T00:30, K4 10-20T02; K2 at 10-14T01 is before 10-14T12
    expect([week?.purchases, week?.volume, week?.fromContracts, week?.fromWorkflows, week?.fromWorkflowsVolume, week?.originatedShare]).toEqual(['2', [eur('25'), usd('15')], '1', '0', [], 0.5]);
    expect((await rollup('1h', at('10-20T02:00:00.000')))?.merchants).toEqual([{ merchantDomain: 'sandbox-merchant.local', purchases: '1', volume: [usd('15')] }]);
    const none = await rollup('1h', at('10-20T01:59:59.999'));
    expect([none?.purchases, none?.volume, none?.originatedShare, none?.merchants]).toEqual(['0', [], undefined, []]);
  });
});

describe('GetCoordinationRollup', () => {
  const rollup = async (window: string, asOf?: Date) => (await h.client.getCoordinationRollup({ actor: OPERATOR, query: { window, asOf } })).rollup;

  it('should count threads, participants and workflow activity over 30 days', async () => {
    expect(await rollup('30d')).toEqual({
      window: { window: '30d', from: at('09-21T12:00:00.000'), asOf: NOW },
      threadsCreated: '3',
      postsCreated: '5',
      contractsWithThreads: '2', // C4, C1 (T3 has none)
      participants: '4', // BP (blanked author, from `restricted`), S3, S1, B1
      workflowRunsStarted: '3',
      workflowRunsCompleted: '2',
      workflowRunsFailed: '1',
      workflowStagesCompleted: '1',
      workflowTasksPosted: '2',
      workflowTasksSettled: '2',
      workflowTasksRetried: '1',
      medianRunDurationMs: '97200000', // (R1 24h from its first stage + R3 30h) / 2
    });
  });

  it('should narrow to 7 days and to an empty day', async () => {
    const week = await rollup('7d'); // T3 and BP's last post; R2 and R3
    expect([week?.threadsCreated, week?.postsCreated, week?.contractsWithThreads, week?.participants]).toEqual(['1', '1', '0', '1']);
    expect([week?.workflowRunsStarted, week?.workflowRunsCompleted, week?.workflowRunsFailed, week?.workflowTasksPosted, week?.medianRunDurationMs]).toEqual(['2', '1', '1', '0', '108000000']);
    const day = await rollup('1d');
    expect([day?.threadsCreated, day?.workflowRunsStarted, day?.medianRunDurationMs]).toEqual(['0', '0', undefined]);
  });
});
