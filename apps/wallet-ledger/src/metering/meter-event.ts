import { canonicalize, fromBase64, SIGNATURE_LENGTH } from '@exchange/crypto';
import { walletErrors } from '../domain/wallet.errors';

// A meter event: usage of one meter by a subject agent, signed by the reporting agent
// (README.md "Metering, billing, gateway proxy"). The payload is validated strictly (exactly these
// fields), and from then on only its canonical text is used: that is what the signature covers.

export const METER_EVENT_TYPE = 'meter_event';
export const METER_PATTERN = /^[a-z0-9][a-z0-9._:-]{0,63}$/;
export const EPOCH_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}:agent:[a-z0-9][a-z0-9._-]{0,62}$/;
const UNIT_PATTERN = /^[A-Za-z0-9._/-]{1,32}$/;
const REF_PATTERN = /^[\x20-\x7e]{1,128}$/;
const UTC_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;
export const MAX_QUANTITY = 1_000_000_000_000;
/** The payload has seven short fields; anything much longer is not a meter event. */
const MAX_PAYLOAD_CHARS = 8 * 1024;
const FIELDS = new Set(['meter', 'subject_agent_id', 'quantity', 'unit', 'occurred_at', 'epoch', 'ref']);

/** The fields of a meter event payload, normalised. */
export interface MeterEventFields {
  meter: string;
  subjectAgentId: string;
  quantity: bigint;
  unit: string;
  /** Millisecond precision (stored as TIMESTAMPTZ(3)). */
  occurredAt: Date;
  epoch: string;
  ref: string | null;
}

/** An ingest request, validated: the payload as parsed, its canonical text and its fields. */
export interface SignedMeterEvent {
  signerAgentId: string;
  signature: string;
  payload: Record<string, unknown>;
  /** canonical(payload): what is signed, stored and hashed from here on. */
  payloadJson: string;
  fields: MeterEventFields;
}

/** A meter event as the wallet keeps it, priced by its epoch. */
export interface MeterEvent extends MeterEventFields {
  objectId: string;
  signerAgentId: string;
  signature: string;
  payloadJson: string;
  /** "YYYY-MM" (UTC) of occurredAt. */
  period: string;
  /** Micro-units per unit of quantity, in `currency`. */
  unitPrice: bigint;
  currency: string;
  ingestedAt: Date;
}

const invalid = (field: string, message: string) => walletErrors.validationFailed(message, { field });

export function requireAgentId(value: string, field: string): string {
  if (!AGENT_ID_PATTERN.test(value)) throw invalid(field, `${field} must be an agent id (<namespace>:agent:<name>)`);
  return value;
}

/** RFC 3339 in UTC with "Z" (fraction optional, cut to milliseconds), else 400 naming `field`. */
export function parseUtcTimestamp(value: unknown, field: string): Date {
  const m = typeof value === 'string' ? UTC_TIMESTAMP.exec(value) : null;
  if (!m) throw invalid(field, `${field} must be an RFC 3339 UTC timestamp ending in Z, e.g. 2026-11-01T00:00:00.000Z`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  // Date.UTC rolls 02-30 over into March: a date that does not read back the same does not exist.
  const same =
    at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day && at.getUTCHours() === hour && at.getUTCMinutes() === minute && at.getUTCSeconds() === second;
  if (!same || year < 1) throw invalid(field, `${field} is not a valid date and time`);
  return at;
}

function text(payload: Record<string, unknown>, key: string, pattern: RegExp, what: string): string {
  const v = payload[key];
  if (typeof v !== 'string' || !pattern.test(v)) throw invalid(`payload.${key}`, `payload.${key} must be ${what}`);
  return v;
}

function fieldsOf(payload: Record<string, unknown>): MeterEventFields {
  const unknown = Object.keys(payload).find((k) => !FIELDS.has(k));
  if (unknown !== undefined) throw invalid(`payload.${unknown.slice(0, 64)}`, `payload.${unknown.slice(0, 64)} is not a meter event field`);
  const meter = text(payload, 'meter', METER_PATTERN, `a meter name matching ${METER_PATTERN.source}`);
  const subject = payload['subject_agent_id'];
  if (typeof subject !== 'string') throw invalid('payload.subject_agent_id', 'payload.subject_agent_id must be an agent id');
  const quantity = payload['quantity'];
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
    throw invalid('payload.quantity', `payload.quantity must be a JSON integer from 1 to ${MAX_QUANTITY}`);
  }
  const unit = text(payload, 'unit', UNIT_PATTERN, `a unit matching ${UNIT_PATTERN.source}`);
  const occurredAt = parseUtcTimestamp(payload['occurred_at'], 'payload.occurred_at');
  const epoch = text(payload, 'epoch', EPOCH_PATTERN, `an epoch name matching ${EPOCH_PATTERN.source}`);
  const ref = payload['ref'] === undefined ? null : text(payload, 'ref', REF_PATTERN, '1-128 printable ASCII characters');
  return { meter, subjectAgentId: requireAgentId(subject, 'payload.subject_agent_id'), quantity: BigInt(quantity), unit, occurredAt, epoch, ref };
}

/** Validates an ingest request (400 validation_failed naming the field); the payload comes back canonical. */
export function parseSignedMeterEvent(input: { signerAgentId: string; payloadJson: string; signature: string }): SignedMeterEvent {
  const signerAgentId = requireAgentId(input.signerAgentId, 'signer_agent_id');
  if (input.payloadJson.length > MAX_PAYLOAD_CHARS) throw invalid('payload_json', `payload_json exceeds ${MAX_PAYLOAD_CHARS} characters`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.payloadJson);
  } catch {
    throw invalid('payload_json', 'payload_json must be JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('payload_json', 'payload_json must be a JSON object');
  const payload = parsed as Record<string, unknown>;
  const fields = fieldsOf(payload);
  let signatureBytes: Uint8Array | undefined;
  try {
    signatureBytes = fromBase64(input.signature);
  } catch {
    signatureBytes = undefined;
  }
  if (signatureBytes?.length !== SIGNATURE_LENGTH) throw invalid('signature', 'signature must be base64 of a 64-byte ed25519 signature');
  return { signerAgentId, signature: input.signature, payload, payloadJson: canonicalize(payload), fields };
}

/** Who may read a meter event: its signer and its subject (an operator passes no viewer). */
export function canView(event: Pick<MeterEvent, 'signerAgentId' | 'subjectAgentId'>, viewer: string | null): boolean {
  return viewer === null || viewer === event.signerAgentId || viewer === event.subjectAgentId;
}
