import { errors } from './errors';

export const MICRO_PER_UNIT = 1_000_000n;
/** Amounts are stored as PostgreSQL BIGINT micro-units, so they must fit a signed 64-bit integer. */
export const MAX_AMOUNT_MICRO = 2n ** 63n - 1n; // 9223372036854.775807 units
export const MIN_AMOUNT_MICRO = -(2n ** 63n);

// Plain decimal: optional '-', integer part without leading zeros ("0" alone is fine), optional
// '.' followed by 1–6 digits. No '+', exponent, spaces, ".5" or "1.".
const AMOUNT = /^(-?)(0|[1-9]\d{0,18})(?:\.(\d{1,6}))?$/;

/** "12.5" → 12_500_000n. Throws invalid_argument `invalid_amount` on anything else. */
export function parseAmount(value: string): bigint {
  const match = typeof value === 'string' ? AMOUNT.exec(value) : null;
  if (!match) {
    throw errors.invalidArgument(
      'invalid_amount',
      'amount must be a decimal string with at most 6 fraction digits, e.g. "12.5"',
      { value: String(value).slice(0, 64) },
    );
  }
  const [, sign, whole, fraction = ''] = match;
  const magnitude = BigInt(whole) * MICRO_PER_UNIT + BigInt(fraction.padEnd(6, '0'));
  const micro = sign === '-' ? -magnitude : magnitude;
  if (micro > MAX_AMOUNT_MICRO || micro < MIN_AMOUNT_MICRO) {
    throw errors.invalidArgument('invalid_amount', 'amount is out of range', { value });
  }
  return micro;
}

/** Like `parseAmount`, and the amount must be greater than zero. */
export function parsePositiveAmount(value: string): bigint {
  const micro = parseAmount(value);
  if (micro <= 0n) throw errors.invalidArgument('invalid_amount', 'amount must be greater than 0', { value });
  return micro;
}

/** Shortest decimal form: 12_500_000n → "12.5", 0n → "0", -1n → "-0.000001". */
export function formatAmount(micro: bigint): string {
  const negative = micro < 0n;
  const magnitude = negative ? -micro : micro;
  const whole = magnitude / MICRO_PER_UNIT;
  const fraction = magnitude % MICRO_PER_UNIT;
  let text = whole.toString();
  if (fraction !== 0n) text += '.' + fraction.toString().padStart(6, '0').replace(/0+$/, '');
  return negative ? '-' + text : text;
}
