import { canonicalize } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import type { Visibility } from './access';

export const TYPE_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
export const TAG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
export const MAX_PARTIES = 100;
export const MAX_TAGS = 20;
export const MEDIA_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;.{0,200})?$/i;

/** Types only the exchange stores (StoreExchangeObject); an agent gets 403 reserved_type. */
export const RESERVED_TYPES: ReadonlySet<string> = new Set(['party_alias_token', 'identity_reveal', 'meter_epoch_table', 'subscription_period_receipt']);
export const ATTESTATION_TYPE = 'attestation';

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

/** proto enum number → visibility; UNSPECIFIED takes `fallback`. */
export function visibilityFrom(value: number | undefined, fallback: Visibility): Visibility {
  switch (value ?? 0) {
    case 0:
      return fallback;
    case 1:
      return 'public';
    case 2:
      return 'parties';
    case 3:
      return 'operator';
    default:
      throw invalid('visibility', 'visibility must be public, parties or operator');
  }
}

export function validateType(type: string): string {
  if (!TYPE_PATTERN.test(type)) throw invalid('type', `type must match ${TYPE_PATTERN.source}`);
  return type;
}

/** Parses payload JSON (≤ 1 MiB); returns the value and its canonical text. */
export function parsePayload(payloadJson: string): { payload: unknown; canonical: string } {
  if (Buffer.byteLength(payloadJson, 'utf8') > MAX_PAYLOAD_BYTES) throw invalid('payload', `payload exceeds ${MAX_PAYLOAD_BYTES} bytes`);
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    throw invalid('payload', 'payload must be JSON');
  }
  let canonical: string;
  try {
    canonical = canonicalize(payload);
  } catch {
    throw invalid('payload', 'payload cannot be canonicalized (non-finite number?)');
  }
  return { payload, canonical };
}

/** Attestation payloads carry a string subject_ref and a claim. */
export function attestationSubject(type: string, payload: unknown): string | null {
  if (type !== ATTESTATION_TYPE) return null;
  const p = payload as { subject_ref?: unknown; claim?: unknown } | null;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) throw invalid('payload', 'an attestation payload is an object');
  if (typeof p.subject_ref !== 'string' || p.subject_ref === '' || p.subject_ref.length > 512) {
    throw invalid('payload.subject_ref', 'an attestation needs payload.subject_ref (string, 1-512 chars)');
  }
  if (p.claim === undefined || p.claim === null) throw invalid('payload.claim', 'an attestation needs payload.claim');
  return p.subject_ref;
}

/** Agent ids, deduplicated in first-seen order; ≤ 100. */
export function validateParties(parties: readonly string[]): string[] {
  const out = [...new Set(parties)];
  if (out.length > MAX_PARTIES) throw invalid('parties', `at most ${MAX_PARTIES} parties`);
  for (const p of out) if (p === '' || p.length > 256 || /\s/.test(p)) throw invalid('parties', `party ${JSON.stringify(p)} is not an agent id`);
  return out;
}

export function validateTags(tags: readonly string[]): string[] {
  const out = [...new Set(tags)];
  if (out.length > MAX_TAGS) throw invalid('tags', `at most ${MAX_TAGS} tags`);
  for (const t of out) if (!TAG_PATTERN.test(t)) throw invalid('tags', `tag ${JSON.stringify(t)} must match ${TAG_PATTERN.source}`);
  return out;
}

export function validateMediaType(mediaType: string): string {
  const m = mediaType.trim();
  if (!MEDIA_TYPE_PATTERN.test(m)) throw invalid('media_type', 'media_type must be a MIME type like text/plain');
  return m;
}

export function requireText(field: string, value: string | undefined, max = 2000): string {
  const v = (value ?? '').trim();
  if (v === '') throw invalid(field, `${field} is required`);
  if (v.length > max) throw invalid(field, `${field} is longer than ${max}`);
  return v;
}

export function validateReason(reason: string | undefined): string {
  return requireText('reason', reason, 2000);
}
