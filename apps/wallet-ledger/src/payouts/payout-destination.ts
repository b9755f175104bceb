import { isSigningKeyReuse } from './signing-key-reuse';
import type { PayoutDestinationType } from '../domain/wallet.model';
import { walletErrors } from '../domain/wallet.errors';

const MAX_DETAILS = 20;
const MAX_DETAIL_KEY = 64;
const MAX_DETAIL_VALUE = 512;

/**
 * Checks a destination's details: bounded size, a crypto_address needs details.address, and that
 * address must not be one of the agent's signing keys (400 signing_key_reuse).
 */
export function validateDestination(type: PayoutDestinationType, details: Record<string, string>, agentPubkeys: readonly string[]): void {
  const entries = Object.entries(details);
  if (entries.length > MAX_DETAILS) throw walletErrors.validationFailed(`details may have at most ${MAX_DETAILS} entries`);
  for (const [k, v] of entries) {
    if (k === '' || k.length > MAX_DETAIL_KEY || v.length > MAX_DETAIL_VALUE) {
      throw walletErrors.validationFailed(`details keys must be 1-${MAX_DETAIL_KEY} and values at most ${MAX_DETAIL_VALUE} characters`);
    }
  }
  if (type === 'crypto_address') {
    const address = details['address'];
    if (!address) throw walletErrors.validationFailed('a crypto_address destination needs details.address', { field: 'details.address' });
    if (isSigningKeyReuse(address, agentPubkeys)) throw walletErrors.signingKeyReuse();
  }
}
