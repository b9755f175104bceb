import { isDnsName } from '@exchange/platform';
import { agentAccount, merchantAccount, type AccountRef } from './accounts';
import { walletErrors } from './wallet.errors';

// Merchants are not agents: a commerce purchase pays the merchant's settlement account, owned by
// "merchant:<domain>". Agent ids always contain ":agent:" and a domain contains no ":", so the
// two kinds of owner never collide (and a receipt's payee says which one it is).

export const MERCHANT_OWNER_PREFIX = 'merchant:';

const MAX_DOMAIN = 253;

/** True for a lower-case DNS name: labels of [a-z0-9-] joined by ".", 1-253 characters, no port. */
export const isMerchantDomain = isDnsName;

/** A merchant domain a client sent, else validation_failed naming `field`. */
export function parseMerchantDomain(raw: string, field: string): string {
  if (!isMerchantDomain(raw)) {
    throw walletErrors.validationFailed(`${field} must be a lower-case DNS name (labels of a-z, 0-9 and "-", at most ${MAX_DOMAIN} characters, no port)`, {
      field,
    });
  }
  return raw;
}

export function merchantOwner(domain: string): string {
  return `${MERCHANT_OWNER_PREFIX}${domain}`;
}

/** The merchant domain of an owner "merchant:<domain>", or null when the owner is an agent. */
export function merchantDomainOf(owner: string): string | null {
  if (!owner.startsWith(MERCHANT_OWNER_PREFIX)) return null;
  const domain = owner.slice(MERCHANT_OWNER_PREFIX.length);
  return isMerchantDomain(domain) ? domain : null;
}

/** Where a payee (a receipt's `payee`: an agent id or "merchant:<domain>") is paid. */
export function payeeAccount(payee: string, currency: string): AccountRef {
  return merchantDomainOf(payee) === null ? agentAccount(payee, currency, 'available') : merchantAccount(payee, currency);
}
