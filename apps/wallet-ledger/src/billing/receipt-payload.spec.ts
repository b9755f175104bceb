import type { DomainError } from '@exchange/platform';
import { projectEvents, type PricedMeterEvent } from './projection';
import { assertReceiptFits, contentJson, MAX_RECEIPT_CONTENT_BYTES, parseReceiptPayload, readContentJson, receiptPayload } from './receipt-payload';

const ev = (objectId: string, epoch: string, occurredAt: string, quantity: bigint, unitPrice: bigint): PricedMeterEvent => ({
  objectId,
  meter: 'api.calls',
  epoch,
  occurredAt: new Date(occurredAt),
  quantity,
  unitPrice,
  currency: 'CREDIT',
});

// 100 × 1 000 = 100 000 micro (0.1); 10 × 1 500 = 15 000 (0.015); total 115 000 (0.115).
const figures = projectEvents([ev('sha256:a', 'E1', '2026-10-05T00:00:00Z', 100n, 1_000n), ev('sha256:b', 'E2', '2026-10-20T00:00:00Z', 10n, 1_500n)]);
const payload = receiptPayload({
  periodReceiptId: 'prc_1',
  agentId: 'test:agent:a',
  period: '2026-10',
  projectionId: 'prj_1',
  figures,
  computedAt: new Date('2026-11-10T12:00:00Z'),
  emittedAt: new Date('2026-11-10T12:00:01Z'),
});

describe('subscription period receipt payload', () => {
  it('should carry the projection in the REST form: snake_case, decimal strings, integer counts', () => {
    expect(payload).toEqual({
      type: 'subscription_period_receipt',
      period_receipt_id: 'prc_1',
      agent_id: 'test:agent:a',
      period: '2026-10',
      projection: {
        projection_id: 'prj_1',
        lines: [
          { meter: 'api.calls', epoch: 'E1', unit_price: '0.001', currency: 'CREDIT', quantity: '100', amount: '0.1', event_count: 1 },
          { meter: 'api.calls', epoch: 'E2', unit_price: '0.0015', currency: 'CREDIT', quantity: '10', amount: '0.015', event_count: 1 },
        ],
        totals: [{ currency: 'CREDIT', amount: '0.115' }],
        items: [
          { object_id: 'sha256:a', meter: 'api.calls', epoch: 'E1', occurred_at: '2026-10-05T00:00:00.000Z', quantity: '100', unit_price: '0.001', amount: '0.1', currency: 'CREDIT' },
          { object_id: 'sha256:b', meter: 'api.calls', epoch: 'E2', occurred_at: '2026-10-20T00:00:00.000Z', quantity: '10', unit_price: '0.0015', amount: '0.015', currency: 'CREDIT' },
        ],
        event_count: 2,
        events_sha256: figures.eventsSha256,
        computed_at: '2026-11-10T12:00:00.000Z',
      },
      emitted_at: '2026-11-10T12:00:01.000Z',
    });
  });

  it('should read its own payload back to the same figures', () => {
    const { receipt } = parseReceiptPayload(JSON.stringify(payload));
    expect(receipt).toEqual({
      periodReceiptId: 'prc_1',
      agentId: 'test:agent:a',
      period: '2026-10',
      projectionId: 'prj_1',
      figures,
      computedAt: new Date('2026-11-10T12:00:00Z'),
      emittedAt: new Date('2026-11-10T12:00:01Z'),
    });
    expect(readContentJson(JSON.parse(JSON.stringify(contentJson(figures))))).toEqual({ lines: figures.lines, totals: figures.totals, items: figures.items });
  });

  it('should read amounts beyond BIGINT exactly', () => {
    const big = JSON.parse(JSON.stringify(payload));
    big.projection.totals[0].amount = '92233720368547758070.000001';
    expect(parseReceiptPayload(JSON.stringify(big)).receipt.figures.totals[0].amount).toBe(92_233_720_368_547_758_070_000_001n);
  });

  const broken: Array<[string, (p: any) => unknown]> = [
    ['not JSON', () => '{'],
    ['an array', () => []],
    ['another type', (p) => ({ ...p, type: 'receipt' })],
    ['no projection', (p) => ({ ...p, projection: undefined })],
    ['items not an array', (p) => ({ ...p, projection: { ...p.projection, items: {} } })],
    ['a float amount', (p) => ({ ...p, projection: { ...p.projection, totals: [{ currency: 'CREDIT', amount: 0.115 }] } })],
    ['7 fraction digits', (p) => ({ ...p, projection: { ...p.projection, totals: [{ currency: 'CREDIT', amount: '0.1150000' }] } })],
    ['a fractional quantity', (p) => ({ ...p, projection: { ...p.projection, items: [{ ...p.projection.items[0], quantity: '1.5' }] } })],
    ['a bad instant', (p) => ({ ...p, projection: { ...p.projection, items: [{ ...p.projection.items[0], occurred_at: 'yesterday' }] } })],
    ['a negative event count', (p) => ({ ...p, projection: { ...p.projection, event_count: -1 } })],
    ['an empty agent', (p) => ({ ...p, agent_id: '' })],
  ];
  it.each(broken)('should refuse %s with validation_failed', (_name, mutate) => {
    const value = mutate(JSON.parse(JSON.stringify(payload)));
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    expect(() => parseReceiptPayload(text, 'presented.payload_json')).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field: 'presented.payload_json' }) }) as DomainError,
    );
  });
});

describe('assertReceiptFits', () => {
  // 4 000 items with 64-character meters: about 1.3 MB of receipt content, over what the registry stores.
  const big = (n: number) =>
    projectEvents(
      Array.from({ length: n }, (_, i) => ({
        objectId: `sha256:${i.toString(16).padStart(64, '0')}`,
        meter: `m${String(i).padStart(63, '0')}`,
        epoch: 'E1',
        occurredAt: new Date(Date.UTC(2026, 9, 1, 0, 0, i)),
        quantity: 1_000_000n,
        unitPrice: 1_000n,
        currency: 'CREDIT',
      })),
    );

  it('should accept a receipt under the registry limit', () => {
    expect(() => assertReceiptFits(big(100))).not.toThrow();
  });

  it('should refuse one over it as projection_too_large with the count and size', () => {
    let caught: unknown;
    try {
      assertReceiptFits(big(4_000));
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: 'projection_too_large', details: { event_count: 4_000, bytes: expect.any(Number) } });
    expect((caught as { details: { bytes: number } }).details.bytes).toBeGreaterThan(MAX_RECEIPT_CONTENT_BYTES);
  });
});
