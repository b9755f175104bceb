import { codes, publishDate } from 'currency-codes';

// Which currencies money may be in (DESIGN §3 "Money"): `CREDIT` (sandbox credits) or an ISO 4217
// alphabetic code. The ISO list comes from the npm package `currency-codes` (ISO 4217 list one,
// see ISO_4217_PUBLISHED), so a new or withdrawn code is a dependency update, not a code change.
// The gateway schemas, wallet-ledger and market all ask isSupportedCurrency: services never trust
// the gateway to have checked.

export const CREDIT = 'CREDIT';

/**
 * ISO 4217 codes that name no money: XXX ("no currency involved") and XTS ("reserved for
 * testing"). A balance or price in them would mean nothing, so they are refused.
 */
const NOT_MONEY = new Set(['XXX', 'XTS']);

/** The ISO 4217 alphabetic codes accepted, sorted. */
export const ISO_4217_CODES: readonly string[] = Object.freeze(
  codes()
    .filter((c) => /^[A-Z]{3}$/.test(c) && !NOT_MONEY.has(c))
    .sort(),
);

/** Publication date of the ISO 4217 list the codes come from. */
export const ISO_4217_PUBLISHED: string = publishDate;

const SUPPORTED = new Set<string>([CREDIT, ...ISO_4217_CODES]);

/** `CREDIT` or a current ISO 4217 code (exact, upper case). */
export function isSupportedCurrency(value: string): boolean {
  return typeof value === 'string' && SUPPORTED.has(value);
}
