// Offline verification of a docket (and of the payloads and extra files of its archive). Never
// throws for a parsed docket: every problem becomes a failing check that names what failed.
import { canonicalize, fromBase64, sha256Hex, verifyCanonical } from '@exchange/crypto';
import { RECORD_KINDS, type CasefileCheck, type VerifyResult } from './types';

const HEX64 = /^[0-9a-f]{64}$/;
const DOCKET_ID = /^dkt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const DOCKET_FIELDS = ['docket_id', 'subject', 'entries', 'created_at', 'exchange_pubkey', 'signature'];

export interface VerifyDocketOptions {
  /** Artifact bytes by hex sha256 (from an archive's payloads/); absent → "payload not included". */
  payloads?: Map<string, Uint8Array>;
  /** Instead of `payloads`: the sha256 and size each payload file hashed to as it streamed by. */
  payloadDigests?: Map<string, PayloadDigest>;
  /** Base64 exchange public key to trust. Without it the docket's own `exchange_pubkey` is used (and said so). */
  trustedPublicKey?: string;
  /** Archive file names that are neither docket.json nor a payload of an artifact entry. */
  extraFiles?: string[];
}

/** What a payload file hashed to: hex sha256 of its bytes and their count. */
export interface PayloadDigest {
  sha256: string;
  size: number;
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyLength(b64: unknown): number {
  if (typeof b64 !== 'string') return -1;
  try {
    return fromBase64(b64).length;
  } catch {
    return -1;
  }
}

function shapeProblems(docket: Obj): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(docket)) if (!DOCKET_FIELDS.includes(key)) problems.push(`unexpected field ${key}`);
  if (typeof docket['docket_id'] !== 'string' || !DOCKET_ID.test(docket['docket_id'])) problems.push('docket_id must be dkt_<uuidv7>');
  if (!isObject(docket['subject'])) problems.push('subject must be an object');
  if (!Array.isArray(docket['entries'])) problems.push('entries must be an array');
  if (typeof docket['created_at'] !== 'string' || !ISO_UTC.test(docket['created_at']) || Number.isNaN(Date.parse(docket['created_at']))) {
    problems.push('created_at must be an ISO 8601 UTC timestamp');
  }
  if (keyLength(docket['exchange_pubkey']) !== 32) problems.push('exchange_pubkey must be a base64 32-byte key');
  if (keyLength(docket['signature']) !== 64) problems.push('signature must be a base64 64-byte signature');
  return problems;
}

function entryRef(entry: unknown, index: number): string {
  return isObject(entry) && typeof entry['ref'] === 'string' && entry['ref'] !== '' ? entry['ref'] : `entries[${index}]`;
}

function checkEntry(entry: unknown, ref: string, payloads: Map<string, PayloadDigest>): CasefileCheck {
  if (!isObject(entry)) return { ref, ok: false, reason: 'entry is not an object' };
  if (ref.startsWith('entries[')) return { ref, ok: false, reason: 'entry has no ref' };
  const { kind, sha256 } = entry;
  if (typeof sha256 !== 'string' || !HEX64.test(sha256)) return { ref, ok: false, reason: 'sha256 is not 64 lowercase hex characters' };
  if (kind === 'artifact') {
    for (const key of Object.keys(entry)) {
      if (!['kind', 'ref', 'sha256', 'media_type', 'size_bytes'].includes(key)) return { ref, ok: false, reason: `unexpected field ${key} in an artifact entry` };
    }
    if (typeof entry['media_type'] !== 'string' || entry['media_type'] === '') return { ref, ok: false, reason: 'media_type missing' };
    const size = entry['size_bytes'];
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return { ref, ok: false, reason: 'size_bytes must be a non-negative integer' };
    if (ref !== `sha256:${sha256}`) return { ref, ok: false, reason: 'ref does not match sha256' };
    const payload = payloads.get(sha256);
    if (payload === undefined) return { ref, ok: true, reason: 'payload not included' };
    if (payload.sha256 !== sha256) return { ref, ok: false, reason: `payload hash mismatch (payload sha256 ${payload.sha256})` };
    if (payload.size !== size) return { ref, ok: false, reason: `payload size ${payload.size} does not match size_bytes ${size}` };
    return { ref, ok: true };
  }
  if (typeof kind !== 'string' || !(RECORD_KINDS as readonly string[]).includes(kind)) return { ref, ok: false, reason: `unknown entry kind ${String(kind)}` };
  for (const key of Object.keys(entry)) {
    if (!['kind', 'ref', 'sha256', 'content'].includes(key)) return { ref, ok: false, reason: `unexpected field ${key} in a ${kind} entry` };
  }
  if (!('content' in entry) || entry['content'] === undefined) return { ref, ok: false, reason: 'content missing' };
  let actual: string;
  try {
    actual = sha256Hex(canonicalize(entry['content']));
  } catch (err) {
    return { ref, ok: false, reason: `content cannot be canonicalized: ${(err as Error).message}` };
  }
  return actual === sha256 ? { ref, ok: true } : { ref, ok: false, reason: `content hash mismatch (content sha256 ${actual})` };
}

function checkSignature(docket: Obj, trustedPublicKey: string | undefined): CasefileCheck {
  const { signature, ...unsigned } = docket;
  const pubkey = docket['exchange_pubkey'];
  if (typeof signature !== 'string') return { ref: 'signature', ok: false, reason: 'signature missing' };
  if (trustedPublicKey !== undefined) {
    if (keyLength(trustedPublicKey) !== 32) return { ref: 'signature', ok: false, reason: 'trusted exchange key is not a base64 32-byte key' };
    if (pubkey !== trustedPublicKey) return { ref: 'signature', ok: false, reason: 'docket exchange_pubkey is not the trusted exchange key' };
    return verifyCanonical(unsigned, signature, trustedPublicKey)
      ? { ref: 'signature', ok: true }
      : { ref: 'signature', ok: false, reason: 'signature does not verify with the trusted exchange key' };
  }
  if (typeof pubkey !== 'string') return { ref: 'signature', ok: false, reason: 'exchange_pubkey missing' };
  return verifyCanonical(unsigned, signature, pubkey)
    ? { ref: 'signature', ok: true, reason: 'verified with the docket’s own exchange_pubkey (no trusted key given)' }
    : { ref: 'signature', ok: false, reason: 'signature does not verify with the docket’s exchange_pubkey' };
}

function digestsOf(payloads: Map<string, Uint8Array> | undefined): Map<string, PayloadDigest> {
  return new Map([...(payloads ?? [])].map(([hex, bytes]) => [hex, { sha256: sha256Hex(bytes), size: bytes.length }]));
}

/**
 * Checks, in order: `docket` (shape), `signature`, one per entry (named by its ref: record content
 * hash; artifact payload hash and size when the payload is given), then one failing check per
 * extra archive file. valid = every check ok.
 */
export function verifyDocket(docket: unknown, options: VerifyDocketOptions = {}): VerifyResult {
  if (!isObject(docket)) {
    return { valid: false, docket_id: '', checks: [{ ref: 'docket', ok: false, reason: 'docket is not a JSON object' }] };
  }
  const checks: CasefileCheck[] = [];
  const problems = shapeProblems(docket);
  checks.push(problems.length === 0 ? { ref: 'docket', ok: true } : { ref: 'docket', ok: false, reason: problems.join('; ') });
  checks.push(checkSignature(docket, options.trustedPublicKey));

  const entries = Array.isArray(docket['entries']) ? (docket['entries'] as unknown[]) : [];
  const payloads = options.payloadDigests ?? digestsOf(options.payloads);
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const ref = entryRef(entry, index);
    const kind = isObject(entry) ? String(entry['kind']) : '';
    const check = checkEntry(entry, ref, payloads);
    if (check.ok && seen.has(`${kind} ${ref}`)) {
      checks.push({ ref, ok: false, reason: `duplicate ${kind} entry` });
    } else {
      checks.push(check);
    }
    seen.add(`${kind} ${ref}`);
  });

  const artifactHashes = new Set(
    entries.filter((e): e is Obj => isObject(e) && e['kind'] === 'artifact' && typeof e['sha256'] === 'string').map((e) => e['sha256'] as string),
  );
  for (const hex of payloads.keys()) {
    if (!artifactHashes.has(hex)) checks.push({ ref: `payloads/${hex}`, ok: false, reason: 'archive file not in the docket' });
  }
  for (const name of options.extraFiles ?? []) checks.push({ ref: name, ok: false, reason: 'archive file not in the docket' });

  const docketId = typeof docket['docket_id'] === 'string' ? docket['docket_id'] : '';
  return { valid: checks.every((c) => c.ok), docket_id: docketId, checks };
}
