import { canonicalBytes } from '@exchange/crypto';

/**
 * Mandate signature (README "Mandate signature"). The signer signs, with ed25519 and one of its
 * identity keys, the UTF-8 bytes of the RFC 8785 canonical JSON of exactly this object:
 *
 *   {"agent_id": …, "expires_at": …, "limits": {"currency": …, "per_transaction": …, "total": …},
 *    "scope": {"categories": [...], "merchants": [...], "skus": [...]}, "signer_agent_id": …}
 *
 * - amounts are the decimal strings as sent in the request ("100.50" stays "100.50");
 * - scope lists are as sent, in the order sent (empty list = any);
 * - expires_at is normalized to JavaScript's `Date.toISOString()` form: UTC, always three
 *   fraction digits, `Z` suffix — `2026-12-31T23:59:59.000Z`. Whatever RFC 3339 form the client
 *   sent (offset, no fraction), it signs this normalized form; sub-millisecond digits are cut
 *   (the mandate keeps milliseconds). In Python:
 *   `dt.astimezone(timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.') + f'{dt.microsecond // 1000:03d}Z'`.
 * The signature is base64 (standard alphabet) of the 64 signature bytes.
 */
export interface MandateSigningInput {
  signerAgentId: string;
  agentId: string;
  scope: { merchants: string[]; categories: string[]; skus: string[] };
  limits: { perTransaction: string; total: string; currency: string };
  expiresAt: Date;
}

/** The signed object; stored as the mandate's signed_payload. */
export interface MandateSignedPayload {
  signer_agent_id: string;
  agent_id: string;
  scope: { merchants: string[]; categories: string[]; skus: string[] };
  limits: { per_transaction: string; total: string; currency: string };
  expires_at: string;
}

export function mandateSignedPayload(input: MandateSigningInput): MandateSignedPayload {
  return {
    signer_agent_id: input.signerAgentId,
    agent_id: input.agentId,
    scope: { merchants: [...input.scope.merchants], categories: [...input.scope.categories], skus: [...input.scope.skus] },
    limits: { per_transaction: input.limits.perTransaction, total: input.limits.total, currency: input.limits.currency },
    expires_at: input.expiresAt.toISOString(),
  };
}

/** The bytes the signature covers. */
export function mandateSigningBytes(payload: MandateSignedPayload): Uint8Array {
  return canonicalBytes(payload);
}
