import { code as currencyInfo } from 'currency-codes';
import { CREDIT, errors, isSupportedCurrency } from '@exchange/platform';

// UCP amounts are integer ISO 4217 minor units (USD 2500 = 25.00); the exchange keeps micro-units
// (6 fraction digits). One minor unit is 10^(6 - exponent) micro-units; CREDIT is not a UCP currency.

const MICRO_DIGITS = 6;

/** The ISO 4217 exponent (USD 2, JPY 0, BHD 3); undefined for CREDIT or a code the exchange does not hold money in (XXX, XTS, unknown). */
export function currencyExponent(currency: string): number | undefined {
  if (currency === CREDIT || !isSupportedCurrency(currency)) return undefined;
  const info = currencyInfo(currency);
  return info && info.digits <= MICRO_DIGITS ? info.digits : undefined;
}

/** Minor units (a safe non-negative-or-negative integer from a validated UCP object) → micro-units. */
export function minorToMicro(minor: number, currency: string): bigint {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) throw errors.invalidArgument('unsupported_currency', `currency ${currency} is not an ISO 4217 currency commerce can pay in`, { currency });
  if (!Number.isSafeInteger(minor)) throw errors.invalidArgument('invalid_amount', 'a UCP amount must be an integer of minor units', { value: String(minor) });
  return BigInt(minor) * 10n ** BigInt(MICRO_DIGITS - exponent);
}

/** Micro-units → minor units; undefined when the amount has more precision than the currency. */
export function microToMinor(micro: bigint, currency: string): bigint | undefined {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return undefined;
  const factor = 10n ** BigInt(MICRO_DIGITS - exponent);
  return micro % factor === 0n ? micro / factor : undefined;
}
