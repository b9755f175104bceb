/**
 * Why a verification failed. One vocabulary for all schemes so a caller maps reasons to its own
 * error codes in one place (README "Reasons").
 */
export type FailureReason =
  | 'missing_signature' // no signature header at all (or no signature with the asked label)
  | 'malformed_signature' // signature headers present but unparsable or inconsistent
  | 'missing_header' // Standard Webhooks: webhook-id or webhook-timestamp absent
  | 'unknown_key' // no key for the keyid (or no keyid)
  | 'key_lookup_failed' // the caller's resolver threw (e.g. merchant profile unreachable)
  | 'invalid_key' // the resolver returned something that is not a usable key
  | 'unsupported_algorithm' // key or alg parameter outside the allowed algorithms
  | 'component_not_covered' // a component the verifier requires is not signed
  | 'missing_component' // a signed component is absent from the message
  | 'missing_digest' // a body without a Content-Digest header
  | 'malformed_digest'
  | 'unsupported_digest' // Content-Digest names no algorithm we accept (sha-256, sha-512)
  | 'digest_mismatch'
  | 'expired' // expires passed, or older than maxAge / the timestamp tolerance
  | 'not_yet_valid' // created (or webhook-timestamp) in the future beyond the skew
  | 'bad_signature'
  | 'invalid_input'; // verifyWebhook: headers or body that no honest sender produces

export interface Failure {
  valid: false;
  reason: FailureReason;
  /** A short human explanation; never contains secrets, may quote a bounded header excerpt. */
  detail?: string;
}

export function fail(reason: FailureReason, detail?: string): Failure {
  return detail === undefined ? { valid: false, reason } : { valid: false, reason, detail };
}
