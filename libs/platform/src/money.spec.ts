import { status } from '@grpc/grpc-js';
import fc from 'fast-check';
import { DomainError } from './errors';
import { formatAmount, MAX_AMOUNT_MICRO, MIN_AMOUNT_MICRO, parseAmount, parsePositiveAmount } from './money';

function expectInvalidAmount(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(DomainError);
  expect((caught as DomainError).code).toBe('invalid_amount');
  expect((caught as DomainError).grpcCode).toBe(status.INVALID_ARGUMENT);
}

describe('parseAmount', () => {
  it.each([
    ['0', 0n],
    ['0.0', 0n],
    ['-0', 0n],
    ['0.000001', 1n],
    ['0.000125', 125n],
    ['1', 1_000_000n],
    ['12.5', 12_500_000n],
    ['12.500000', 12_500_000n],
    ['-1', -1_000_000n],
    ['-0.000001', -1n],
    ['100', 100_000_000n],
    ['9223372036854.775807', MAX_AMOUNT_MICRO],
    ['-9223372036854.775808', MIN_AMOUNT_MICRO],
  ])('should parse %j as %d micro-units', (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
  });

  it.each([
    ['empty string', ''],
    ['trailing dot', '1.'],
    ['missing integer part', '.5'],
    ['exponent', '1e3'],
    ['capital exponent', '1E3'],
    ['plus sign', '+1'],
    ['leading space', ' 1'],
    ['trailing space', '1 '],
    ['7 fraction digits', '0.0000001'],
    ['7 fraction digits, trailing zero', '1.0000000'],
    ['leading zero', '01'],
    ['leading zeros', '007.5'],
    ['negative leading zero', '-01'],
    ['comma separator', '1,5'],
    ['thousands separator', '1_000'],
    ['hex', '0x10'],
    ['double sign', '--1'],
    ['lone minus', '-'],
    ['two dots', '1.2.3'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['unicode digit', '١'],
    ['one above int64 max', '9223372036854.775808'],
    ['one below int64 min', '-9223372036854.775809'],
    ['2^64 units', '18446744073709551616'],
    ['huge', '1' + '0'.repeat(40)],
  ])('should reject %s (%j)', (_label, input) => {
    expectInvalidAmount(() => parseAmount(input));
  });

  it('should reject non-string input coming from untyped callers', () => {
    expectInvalidAmount(() => parseAmount(12 as unknown as string));
  });
});

describe('parsePositiveAmount', () => {
  it('should accept the smallest positive amount', () => {
    expect(parsePositiveAmount('0.000001')).toBe(1n);
  });

  it.each(['0', '0.000000', '-0', '-1', '-0.000001'])('should reject %j', (input) => {
    expectInvalidAmount(() => parsePositiveAmount(input));
  });

  it('should reject malformed input like parseAmount', () => {
    expectInvalidAmount(() => parsePositiveAmount('1e3'));
  });
});

describe('formatAmount', () => {
  it.each([
    [0n, '0'],
    [1n, '0.000001'],
    [-1n, '-0.000001'],
    [12_500_000n, '12.5'],
    [1_000_000n, '1'],
    [-1_000_000n, '-1'],
    [1_000_010n, '1.00001'],
    [125n, '0.000125'],
    [MAX_AMOUNT_MICRO, '9223372036854.775807'],
    [MIN_AMOUNT_MICRO, '-9223372036854.775808'],
  ])('should format %d as %j', (micro, expected) => {
    expect(formatAmount(micro)).toBe(expected);
  });

  it('should round-trip every int64 micro amount through parseAmount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_AMOUNT_MICRO, max: MAX_AMOUNT_MICRO }), (micro) => {
        expect(parseAmount(formatAmount(micro))).toBe(micro);
      }),
      { numRuns: 2000 },
    );
  });

  it('should produce the shortest form (no trailing zeros, no trailing dot)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_AMOUNT_MICRO, max: MAX_AMOUNT_MICRO }), (micro) => {
        const text = formatAmount(micro);
        expect(text).not.toMatch(/\.\d*0$/);
        expect(text).not.toMatch(/\.$/);
        expect(text).not.toBe('-0');
      }),
      { numRuns: 2000 },
    );
  });

  it('should normalise any accepted spelling to the same canonical string', () => {
    const spelling = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 9_223_372_036_853n }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 6 }))
      .map(([negative, whole, fraction, digits]) => {
        const frac = digits === 0 ? '' : '.' + String(fraction).padStart(6, '0').slice(0, digits);
        return `${negative ? '-' : ''}${whole}${frac}`;
      });
    fc.assert(
      fc.property(spelling, (text) => {
        const micro = parseAmount(text);
        expect(formatAmount(parseAmount(formatAmount(micro)))).toBe(formatAmount(micro));
        expect(Number(formatAmount(micro))).toBeCloseTo(Number(text), 5);
      }),
      { numRuns: 1000 },
    );
  });
});
