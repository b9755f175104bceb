// GetOutcomeMetrics over gRPC against the seeded history of reports-history.ts (real PostgreSQL,
// facts folded by ingest). Contract outcomes count contracts whose terminal state falls in the
// window (ended_at ∈ (from, as_of]); commerce counts checkouts that ended in it and the purchases
// completed in it. Every figure is worked out by hand from that file's tables.
import { telemetryV1 } from '@exchange/proto';
import { history, NOW, B1, B2, BP, S1 } from './reports-history';
import { agentActor, failureCode, OPERATOR, startReportsHarness, type ReportsHarness } from './reports-seed';

let h: ReportsHarness;
const at = (s: string) => new Date(`2026-${s}Z`);
const H = 3_600_000;

beforeAll(async () => {
  h = await startReportsHarness('telemetry_outcomes', NOW);
  await h.seed(history());
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

const usd = (amount: string) => ({ amount, currency: 'USD' });
const eur = (amount: string) => ({ amount, currency: 'EUR' });
const metrics = async (over: { window?: string; asOf?: Date; merchantId?: string; agentId?: string; actor?: typeof OPERATOR } = {}) =>
  (await h.client.getOutcomeMetrics({ actor: over.actor ?? OPERATOR, query: { window: over.window ?? '', asOf: over.asOf }, merchantId: over.merchantId, agentId: over.agentId })).metrics;

describe('GetOutcomeMetrics', () => {
  it('should measure every terminal contract and ended checkout of all history', async () => {
    expect(await metrics({ window: 'all' })).toEqual({
      window: { window: 'all', asOf: NOW },
      contracts: {
        terminal: '11', // settled C1 C2 C7 C8 C9 C10 C11; refunded C3; split C4; cancelled C5; expired C6 (C12 is open)
        settled: '7',
        refunded: '1',
        split: '1',
        cancelled: '1',
        expired: '1',
        disputed: '2', // C3, C4
        successRate: 7 / 11,
        refundRate: 1 / 11,
        disputeRate: 2 / 11,
        // settle times 2h+1ms (C11), 5h (C7), 24h (C1), 24h (C8), 25h (C9), 36h (C2), 48h (C10)
        medianTimeToSettleMs: String(24 * H),
        p90TimeToSettleMs: String(48 * H), // rank ⌈0.9 × 7⌉ = 7
      },
      commerce: {
        ended: '6', // K1–K4 completed, K5 canceled, K6 payment failed
        completed: '4',
        canceled: '1',
        failed: '1',
        successRate: 4 / 6,
        medianTimeToCompleteMs: String(2_700_000), // of 10 min, 30 min, 1h, 2h: (30 min + 1h) / 2
        volume: [eur('25'), usd('115')], // K3; K1 40 + K2 60 + K4 15
      },
    });
  });

  it('should leave out what ended at the window start (7 days from 10-14T12:00, exclusive)', async () => {
    const m = await metrics(); // default 7d
    expect(m?.window).toEqual({ window: '7d', from: at('10-14T12:00:00.000'), asOf: NOW });
    // C2 settled at exactly 10-14T12:00: out. In: C3 C4 C5 C8 C9.
    expect(m?.contracts).toEqual({
      terminal: '5',
      settled: '2',
      refunded: '1',
      split: '1',
      cancelled: '1',
      expired: '0',
      disputed: '2',
      successRate: 0.4,
      refundRate: 0.2,
      disputeRate: 0.4,
      medianTimeToSettleMs: String(88_200_000), // (24h + 25h) / 2
      p90TimeToSettleMs: String(25 * H), // rank ⌈1.8⌉ = 2
    });
    // K3 (10-15T00:30), K5 (10-16T01), K6 (10-17T00:05), K4 (10-20T02)
    expect(m?.commerce).toEqual({ ended: '4', completed: '2', canceled: '1', failed: '1', successRate: 0.5, medianTimeToCompleteMs: String(4_500_000), volume: [eur('25'), usd('15')] });
  });

  it('should narrow to one agent: a seller, a private buyer, a buyer with checkouts', async () => {
    const seller = await metrics({ window: 'all', agentId: S1 }); // C1 C9 C11 settled, C3 refunded
    expect(seller?.agentId).toBe(S1);
    expect(seller?.contracts).toEqual({
      terminal: '4', settled: '3', refunded: '1', split: '0', cancelled: '0', expired: '0', disputed: '1',
      successRate: 0.75, refundRate: 0.25, disputeRate: 0.25,
      medianTimeToSettleMs: String(24 * H), // of 2h+1ms, 24h, 25h
      p90TimeToSettleMs: String(25 * H),
    });
    expect(seller?.commerce).toEqual({ ended: '0', completed: '0', canceled: '0', failed: '0', volume: [] });
    // BP's contracts are found by the buyer id the public part blanks (C4 split; C12 open).
    const privateBuyer = await metrics({ window: 'all', agentId: BP });
    expect(privateBuyer?.contracts).toEqual({ terminal: '1', settled: '0', refunded: '0', split: '1', cancelled: '0', expired: '0', disputed: '1', successRate: 0, refundRate: 0, disputeRate: 1 });
    const buyer = await metrics({ window: '30d', agentId: B1 }); // C1 C2 C8 C9; K1 K3 completed, K5 canceled
    expect([buyer?.contracts?.terminal, buyer?.contracts?.successRate, buyer?.contracts?.medianTimeToSettleMs, buyer?.contracts?.p90TimeToSettleMs]).toEqual([
      '4', 1, String(88_200_000), String(36 * H), // 24h 24h 25h 36h: (24h + 25h) / 2; rank ⌈3.6⌉ = 4
    ]);
    expect(buyer?.commerce).toEqual({ ended: '3', completed: '2', canceled: '1', failed: '0', successRate: 2 / 3, medianTimeToCompleteMs: String(1_200_000), volume: [eur('25'), usd('40')] });
  });

  it('should narrow to one merchant (no contract outcomes), and to a merchant and a buyer', async () => {
    const shop = await metrics({ window: 'all', merchantId: 'shop.example' }); // K1 K2 completed, K5 canceled
    expect(shop).toEqual({
      window: { window: 'all', asOf: NOW },
      merchantId: 'shop.example',
      commerce: { ended: '3', completed: '2', canceled: '1', failed: '0', successRate: 2 / 3, medianTimeToCompleteMs: String(2_100_000), volume: [usd('100')] },
    });
    const sandbox = await metrics({ window: '7d', merchantId: 'sandbox-merchant.local' }); // K3 K4 completed, K6 failed
    expect(sandbox?.commerce).toEqual({ ended: '3', completed: '2', canceled: '0', failed: '1', successRate: 2 / 3, medianTimeToCompleteMs: String(4_500_000), volume: [eur('25'), usd('15')] });
    const both = await metrics({ window: 'all', merchantId: 'shop.example', agentId: B1 }); // K1, K5
    expect(both?.commerce).toEqual({ ended: '2', completed: '1', canceled: '1', failed: '0', successRate: 0.5, medianTimeToCompleteMs: String(600_000), volume: [usd('40')] });
  });

  it('should answer an agent too, with an as_of in the past', async () => {
    const m = await metrics({ actor: agentActor(B2), window: '1d', asOf: at('10-16T01:00:00.000') }); // (10-15T01, 10-16T01]: C5 cancelled, C3 refunded; K5 canceled
    expect([m?.contracts?.terminal, m?.contracts?.cancelled, m?.contracts?.refunded, m?.commerce?.ended, m?.commerce?.canceled]).toEqual(['2', '1', '1', '1', '1']);
  });

  it('should refuse bad filters, an unknown window, a future as_of and no actor', async () => {
    expect(await failureCode(metrics({ merchantId: 'Shop.Example' }))).toEqual({ code: 'validation_failed', details: { field: 'merchant_id' } });
    expect(await failureCode(metrics({ agentId: 'b1' }))).toEqual({ code: 'validation_failed', details: { field: 'agent_id' } });
    expect(await failureCode(metrics({ window: '90d' }))).toEqual({ code: 'validation_failed', details: { field: 'window' } });
    expect(await failureCode(metrics({ asOf: new Date(NOW.getTime() + 1) }))).toEqual({ code: 'validation_failed', details: { field: 'as_of' } });
    expect((await failureCode(h.client.getOutcomeMetrics(telemetryV1.GetOutcomeMetricsRequest.fromPartial({ query: { window: '7d' } })))).code).toBe('forbidden');
  });
});
