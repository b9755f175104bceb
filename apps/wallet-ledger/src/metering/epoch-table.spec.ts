import { canonicalize } from '@exchange/crypto';
import { DomainError } from '@exchange/platform';
import { firstOverlap, parseEpochTable, rangeCovers, rangesOverlap } from './epoch-table';

const d = (iso: string) => new Date(iso);
const input = {
  epoch: 'E1',
  effectiveFrom: d('2026-11-01T00:00:00Z'),
  effectiveTo: d('2026-12-01T00:00:00Z'),
  prices: [
    { meter: 'tokens', unitPrice: '0.000100' },
    { meter: 'calls', unitPrice: '2' },
  ],
  currency: undefined as string | undefined,
};

function refusal(fn: () => unknown): { code: string; field?: unknown } {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, field: err.details?.['field'] };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('parseEpochTable', () => {
  it('sorts the prices, normalises them and builds the canonical payload (currency CREDIT by default)', () => {
    const t = parseEpochTable(input);
    expect(t.prices).toEqual([
      { meter: 'calls', unitPrice: 2_000_000n },
      { meter: 'tokens', unitPrice: 100n },
    ]);
    expect(t.currency).toBe('CREDIT');
    expect(t.payloadJson).toBe(
      canonicalize({
        epoch: 'E1',
        effective_from: '2026-11-01T00:00:00.000Z',
        effective_to: '2026-12-01T00:00:00.000Z',
        prices: { calls: '2', tokens: '0.0001' },
        currency: 'CREDIT',
      }),
    );
  });

  it('takes a supported currency and refuses another', () => {
    expect(parseEpochTable({ ...input, currency: 'USD' }).currency).toBe('USD');
    expect(refusal(() => parseEpochTable({ ...input, currency: 'XYZ1' })).code).toBe('unsupported_currency');
  });

  it.each([
    ['epoch', { ...input, epoch: '' }, 'epoch'],
    ['missing from', { ...input, effectiveFrom: undefined }, 'effective_from'],
    ['missing to', { ...input, effectiveTo: undefined }, 'effective_to'],
    ['empty range', { ...input, effectiveTo: input.effectiveFrom }, 'effective_to'],
    ['no prices', { ...input, prices: [] }, 'prices'],
    ['too many prices', { ...input, prices: Array.from({ length: 201 }, (_, i) => ({ meter: `m${i}`, unitPrice: '1' })) }, 'prices'],
    ['meter', { ...input, prices: [{ meter: 'A', unitPrice: '1' }] }, 'prices[0].meter'],
    ['meter twice', { ...input, prices: [{ meter: 'a', unitPrice: '1' }, { meter: 'a', unitPrice: '2' }] }, 'prices[1].meter'],
    ['negative price', { ...input, prices: [{ meter: 'a', unitPrice: '-1' }] }, 'prices[0].unit_price'],
    ['7 fraction digits', { ...input, prices: [{ meter: 'a', unitPrice: '0.0000001' }] }, 'prices[0].unit_price'],
    ['price over 1000000', { ...input, prices: [{ meter: 'a', unitPrice: '1000000.000001' }] }, 'prices[0].unit_price'],
  ])('refuses %s naming the field', (_what, bad, field) => {
    expect(refusal(() => parseEpochTable(bad))).toEqual({ code: 'validation_failed', field });
  });

  it('accepts a zero price and the largest one', () => {
    expect(parseEpochTable({ ...input, prices: [{ meter: 'a', unitPrice: '0' }, { meter: 'b', unitPrice: '1000000' }] }).prices.map((p) => p.unitPrice)).toEqual([0n, 1_000_000_000_000n]);
  });
});

describe('ranges', () => {
  const nov = { from: d('2026-11-01T00:00:00Z'), to: d('2026-12-01T00:00:00Z') };
  const dec = { from: d('2026-12-01T00:00:00Z'), to: d('2027-01-01T00:00:00Z') };
  it('touching ranges do not overlap; intersecting ones do', () => {
    expect(rangesOverlap(nov, dec)).toBe(false);
    expect(rangesOverlap(dec, nov)).toBe(false);
    expect(rangesOverlap(nov, { from: d('2026-11-30T23:59:59.999Z'), to: d('2027-01-01T00:00:00Z') })).toBe(true);
    expect(rangesOverlap(nov, { from: d('2026-11-10T00:00:00Z'), to: d('2026-11-11T00:00:00Z') })).toBe(true);
  });
  it('covers from inclusive, to exclusive', () => {
    expect([rangeCovers(nov, nov.from), rangeCovers(nov, nov.to), rangeCovers(nov, d('2026-10-31T23:59:59.999Z'))]).toEqual([true, false, false]);
  });
  it('finds the first overlapping priced range', () => {
    const priced = [
      { epoch: 'old', effectiveFrom: d('2026-10-01T00:00:00Z'), effectiveTo: nov.from },
      { epoch: 'clash', effectiveFrom: d('2026-11-15T00:00:00Z'), effectiveTo: dec.to },
    ];
    expect(firstOverlap(nov, priced)?.epoch).toBe('clash');
    expect(firstOverlap(nov, priced.slice(0, 1))).toBeUndefined();
  });
});
