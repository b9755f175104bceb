import { sha256Hex } from '@exchange/crypto';
import type { DomainError } from '@exchange/platform';
import { eventsSha256Of, MAX_PROJECTION_EVENTS, projectEvents, sameFigures, type PricedMeterEvent } from './projection';

const at = (iso: string) => new Date(iso);
const ev = (objectId: string, meter: string, epoch: string, occurredAt: string, quantity: bigint, unitPrice: bigint): PricedMeterEvent => ({
  objectId,
  meter,
  epoch,
  occurredAt: at(occurredAt),
  quantity,
  unitPrice,
  currency: 'CREDIT',
});

// E1 prices api.calls 0.001 (1 000 micro) and tokens 0.000002 (2 micro); E2 prices api.calls 0.0015 (1 500 micro).
const EVENTS = [
  ev('sha256:d', 'api.calls', 'E2', '2026-10-20T00:00:00.000Z', 10n, 1_500n), //   10 × 1 500 =  15 000 (0.015)
  ev('sha256:b', 'tokens', 'E1', '2026-10-06T00:00:00.000Z', 5_000n, 2n), //     5 000 × 2 =  10 000 (0.01)
  ev('sha256:a', 'api.calls', 'E1', '2026-10-05T00:00:00.000Z', 100n, 1_000n), // 100 × 1 000 = 100 000 (0.1)
  ev('sha256:c', 'api.calls', 'E1', '2026-10-10T00:00:00.000Z', 20n, 1_000n), //   20 × 1 000 =  20 000 (0.02)
];

describe('billing projection', () => {
  const f = projectEvents(EVENTS);

  it('should price every event exactly and sort the items by (occurred_at, object_id)', () => {
    expect(f.items.map((i) => [i.objectId, i.amount])).toEqual([
      ['sha256:a', 100_000n],
      ['sha256:b', 10_000n],
      ['sha256:c', 20_000n],
      ['sha256:d', 15_000n],
    ]);
  });

  it('should break occurred_at ties by object id', () => {
    const same = projectEvents([ev('sha256:z', 'm', 'E', '2026-10-01T00:00:00.000Z', 1n, 1n), ev('sha256:y', 'm', 'E', '2026-10-01T00:00:00.000Z', 1n, 1n)]);
    expect(same.items.map((i) => i.objectId)).toEqual(['sha256:y', 'sha256:z']);
  });

  it('should give one line per (meter, epoch): an epoch boundary inside the period gives two api.calls lines', () => {
    expect(f.lines).toEqual([
      // 100 + 20 = 120 calls; 100 000 + 20 000 = 120 000 micro
      { meter: 'api.calls', epoch: 'E1', unitPrice: 1_000n, currency: 'CREDIT', quantity: 120n, amount: 120_000n, eventCount: 2 },
      { meter: 'api.calls', epoch: 'E2', unitPrice: 1_500n, currency: 'CREDIT', quantity: 10n, amount: 15_000n, eventCount: 1 },
      { meter: 'tokens', epoch: 'E1', unitPrice: 2n, currency: 'CREDIT', quantity: 5_000n, amount: 10_000n, eventCount: 1 },
    ]);
  });

  it('should total per currency: 120 000 + 15 000 + 10 000 = 145 000 micro (0.145)', () => {
    expect(f.totals).toEqual([{ currency: 'CREDIT', amount: 145_000n }]);
    expect(f.eventCount).toBe(4);
  });

  it('should sort totals by currency', () => {
    const two = projectEvents([{ ...EVENTS[0], currency: 'USD' }, EVENTS[1]]);
    expect(two.totals).toEqual([
      { currency: 'CREDIT', amount: 10_000n },
      { currency: 'USD', amount: 15_000n },
    ]);
  });

  it('should hash the sorted object ids joined by newlines', () => {
    expect(f.eventsSha256).toBe(sha256Hex('sha256:a\nsha256:b\nsha256:c\nsha256:d'));
    expect(eventsSha256Of(['sha256:b', 'sha256:a'])).toBe(sha256Hex('sha256:a\nsha256:b'));
    expect(eventsSha256Of([])).toBe(sha256Hex(''));
  });

  it('should never overflow: 1e12 units at 9 223 372 036 854.775807 each is exact', () => {
    const big = projectEvents([ev('sha256:x', 'm', 'E', '2026-10-01T00:00:00.000Z', 1_000_000_000_000n, 2n ** 63n - 1n)]);
    expect(big.totals[0].amount).toBe(1_000_000_000_000n * (2n ** 63n - 1n));
  });

  it('should project an empty period to no lines and no totals', () => {
    expect(projectEvents([])).toEqual({ items: [], lines: [], totals: [], eventCount: 0, eventsSha256: sha256Hex('') });
  });

  it('should refuse more than 10 000 events with projection_too_large and the count', () => {
    const many = Array.from({ length: MAX_PROJECTION_EVENTS + 1 }, (_, i) => ev(`sha256:${i}`, 'm', 'E', '2026-10-01T00:00:00.000Z', 1n, 1n));
    expect(() => projectEvents(many)).toThrow(expect.objectContaining({ code: 'projection_too_large', details: { event_count: 10_001 } }) as DomainError);
    expect(projectEvents(many.slice(1)).eventCount).toBe(10_000);
  });

  it('should find a projection stale when its events or totals changed', () => {
    expect(sameFigures(f, projectEvents([...EVENTS].reverse()))).toBe(true);
    expect(sameFigures(f, projectEvents(EVENTS.slice(1)))).toBe(false);
    expect(sameFigures(f, { ...f, totals: [{ currency: 'CREDIT', amount: 145_001n }] })).toBe(false);
    expect(sameFigures(f, { ...f, eventsSha256: sha256Hex('other') })).toBe(false);
  });
});
