import { errors, isDnsName } from '@exchange/platform';

// A merchant is named by its domain (DESIGN §4 Commerce): a lower-case DNS name, no scheme, port or
// path. IP literals are refused (the last label may not be numeric): a merchant is reached by
// name, and an address would let a caller aim the exchange's fetches at arbitrary hosts.

/** A DNS name (isDnsName) of at least two labels whose last is not numeric. */
export function isMerchantDomain(value: string): boolean {
  if (!isDnsName(value)) return false;
  const labels = value.split('.');
  return labels.length >= 2 && !/^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}

/** The domain itself, or 400 invalid_merchant_domain. */
export function assertMerchantDomain(value: string): string {
  if (!isMerchantDomain(value)) {
    throw errors.invalidArgument('invalid_merchant_domain', 'merchant_domain must be a lower-case DNS name (letters, digits, -, dots; no scheme, port or path)', {
      merchant_domain: value.slice(0, 300),
    });
  }
  return value;
}
