import type { FailureReason } from '@exchange/http-signatures';

// libs/http-signatures' failure vocabulary → the reasons the API shows, UCP's webhook codes where
// UCP names one (ucp-digest §5: key_not_found, digest_mismatch, signature_invalid,
// signature_missing, algorithm_unsupported).

const REASONS: Readonly<Record<FailureReason, string>> = {
  missing_signature: 'signature_missing',
  malformed_signature: 'malformed_signature',
  missing_header: 'header_missing',
  unknown_key: 'key_not_found',
  key_lookup_failed: 'profile_unreachable',
  invalid_key: 'key_invalid',
  unsupported_algorithm: 'algorithm_unsupported',
  component_not_covered: 'component_not_covered',
  missing_component: 'component_missing',
  missing_digest: 'digest_missing',
  malformed_digest: 'digest_malformed',
  unsupported_digest: 'digest_unsupported',
  digest_mismatch: 'digest_mismatch',
  expired: 'timestamp_out_of_window',
  not_yet_valid: 'timestamp_out_of_window',
  bad_signature: 'signature_invalid',
  invalid_input: 'input_invalid',
};

export function webhookReason(reason: FailureReason): string {
  return REASONS[reason];
}
