import { batchSizeOf, DEFAULT_MAX_BATCH } from './event-bus';

describe('batchSizeOf', () => {
  const handler = async () => undefined;

  it('is 1 without a batch handler, the default 64 or the given max with one', () => {
    expect(batchSizeOf({})).toBe(1);
    expect(batchSizeOf({ batch: { handler } })).toBe(DEFAULT_MAX_BATCH);
    expect(DEFAULT_MAX_BATCH).toBe(64);
    expect(batchSizeOf({ batch: { handler, max: 1 } })).toBe(1);
    expect(batchSizeOf({ batch: { handler, max: 500 } })).toBe(500);
  });

  it.each([NaN, 0, -3, 2.5, Infinity])('refuses max %p: an integer ≥ 1 only', (max) => {
    expect(() => batchSizeOf({ batch: { handler, max } })).toThrow(`batch.max must be an integer ≥ 1, got ${max}`);
  });
});
