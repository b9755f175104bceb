import { errors, isSupportedCurrency, parsePositiveAmount } from '@exchange/platform';

// Field checks shared by every request (common.md). Each failure names the field.

export const TAG = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const MAX_TAGS = 20;
export const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
export const ARTIFACT_REF = /^sha256:[0-9a-f]{64}$/;
export const MAX_PAYLOAD_BYTES = 256 * 1024;
const PRINTABLE = /^[\x20-\x7e]{1,255}$/;

export function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', message, { field });
}

/** A string of `min`..`max` characters (code points). */
export function text(field: string, value: string | undefined | null, min: number, max: number): string {
  const v = value ?? '';
  const length = [...v].length;
  if (length < min || length > max) invalid(field, min > 0 ? `${field} must be ${min}-${max} characters` : `${field} must be at most ${max} characters`);
  return v;
}

export function optionalText(field: string, value: string | undefined | null, max: number): string | null {
  if (value === undefined || value === null) return null;
  return text(field, value, 0, max);
}

/** 0–20 tags matching TAG; duplicates dropped, order kept. */
export function tags(value: readonly string[] | undefined, field = 'tags'): string[] {
  const list = value ?? [];
  if (list.length > MAX_TAGS) invalid(field, `at most ${MAX_TAGS} ${field}`);
  for (const t of list) if (!TAG.test(t)) invalid(field, `tag "${t.slice(0, 80)}" must match ${TAG.source}`);
  return [...new Set(list)];
}

/** A positive amount in micro-units with its currency (`CREDIT` or ISO 4217: the shared list, not the gateway's word). */
export function money(field: string, value: { amount: string; currency: string } | undefined | null): { amount: bigint; currency: string } {
  if (!value) invalid(field, `${field} is required`);
  if (!isSupportedCurrency(value.currency)) {
    throw errors.invalidArgument('unsupported_currency', `currency "${value.currency.slice(0, 16)}" is not supported (CREDIT or an ISO 4217 code)`, { field });
  }
  return { amount: parsePositiveAmount(value.amount), currency: value.currency };
}

/** A deadline strictly after `now`; else 400 invalid_deadline. */
export function futureDeadline(value: Date | undefined, now: Date): Date {
  if (value === undefined || Number.isNaN(value.getTime()) || value.getTime() <= now.getTime()) {
    throw errors.invalidArgument('invalid_deadline', 'deadline must be in the future');
  }
  return value;
}

/** An ETA strictly after `now`; else 400 invalid_eta. */
export function futureEta(value: Date | undefined, now: Date): Date {
  if (value === undefined || Number.isNaN(value.getTime()) || value.getTime() <= now.getTime()) {
    throw errors.invalidArgument('invalid_eta', 'eta must be in the future');
  }
  return value;
}

/**
 * An offer promising delivery after the contract's deadline could never be met: 400 invalid_eta
 * (the code of every refused eta), details `{deadline}`. An eta equal to the deadline is fine.
 */
export function etaWithinDeadline(eta: Date, deadline: Date): Date {
  if (eta.getTime() > deadline.getTime()) {
    const iso = deadline.toISOString();
    throw errors.invalidArgument('invalid_eta', `eta must not be after the contract deadline ${iso}`, { deadline: iso });
  }
  return eta;
}

export function isIsoDuration(value: string): boolean {
  return ISO_DURATION.test(value);
}

/** ISO 8601 duration ("PT24H"); else 400 invalid_turnaround. */
export function turnaround(value: string | undefined | null): string {
  if (value === undefined || value === null || !isIsoDuration(value)) {
    throw errors.invalidArgument('invalid_turnaround', 'turnaround must be an ISO 8601 duration such as "PT24H"');
  }
  return value;
}

/** 0–`maxItems` strings of ≤ `maxLength` characters each (dispute evidence). */
export function refs(field: string, value: readonly string[] | undefined, maxItems: number, maxLength: number): string[] {
  const list = value ?? [];
  if (list.length > maxItems) invalid(field, `at most ${maxItems} ${field}`);
  for (const r of list) if ([...r].length > maxLength) invalid(field, `each of ${field} must be at most ${maxLength} characters`);
  return [...list];
}

export function artifactRefs(value: readonly string[] | undefined): string[] {
  const list = value ?? [];
  if (list.length > 100) invalid('artifact_refs', 'at most 100 artifact_refs');
  for (const r of list) if (!ARTIFACT_REF.test(r)) invalid('artifact_refs', 'each artifact_ref must be sha256:<64 hex>');
  return [...list];
}

/** Any JSON value ≤ 256 KiB serialized; returned as submitted. */
export function payloadJson(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  if (Buffer.byteLength(value, 'utf8') > MAX_PAYLOAD_BYTES) invalid('payload', 'payload must be at most 256 KiB of JSON');
  try {
    JSON.parse(value);
  } catch {
    invalid('payload', 'payload must be JSON');
  }
  return value;
}

/** The market's optional idempotency key: undefined when empty, else 1–255 printable ASCII. */
export function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!PRINTABLE.test(value)) {
    throw errors.invalidArgument('invalid_idempotency_key', 'idempotency_key must be 1-255 printable ASCII characters');
  }
  return value;
}

/** 1–9999 for split; absent otherwise (400 invalid_seller_share). */
export function sellerShareBps(outcome: 'seller' | 'buyer' | 'split', value: number | undefined | null): number | null {
  const given = value !== undefined && value !== null;
  if (outcome === 'split') {
    if (!given || !Number.isInteger(value) || value < 1 || value > 9999) {
      throw errors.invalidArgument('invalid_seller_share', 'seller_share_bps must be 1-9999 for a split');
    }
    return value;
  }
  if (given) throw errors.invalidArgument('invalid_seller_share', 'seller_share_bps is only for outcome split');
  return null;
}
