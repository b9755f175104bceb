import { createHash } from 'node:crypto';

// Idempotency keys of one purchase attempt. Every key names the session AND the attempt's deal id
// (fixed at reserve): a resumed step repeats the same key, so wallet-ledger and the merchant
// replay instead of acting twice; a new attempt after a release (the buyer funded the wallet, or
// picked another payment) gets a new deal id, hence fresh keys — wallet-ledger stores refusals
// such as insufficient_funds with the key, so reusing it would refuse forever.

export type WalletStep = 'hold' | 'settle' | 'release';
export type MerchantStep = 'complete' | 'cancel';

/** wallet-ledger key (scope = the buyer): `commerce:<sessionId>:<dealId>:<step>`. */
export function walletKey(sessionId: string, dealId: string, step: WalletStep): string {
  return `commerce:${sessionId}:${dealId}:${step}`;
}

/**
 * The merchant's Idempotency-Key: a UUID (RFC 9562 version 8, "custom") from the sha256 of
 * `commerce:<sessionId>:<dealId>:<step>`, so a resumed complete after a crash repeats the key.
 */
export function merchantKey(sessionId: string, dealId: string, step: MerchantStep): string {
  const b = createHash('sha256').update(`commerce:${sessionId}:${dealId}:${step}`, 'utf8').digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x80; // version 8
  b[8] = (b[8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
