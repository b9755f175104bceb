// Building and signing dockets.
import { canonicalize, fromBase64, publicKeyFromPrivate, sha256Hex, signCanonical, toBase64 } from '@exchange/crypto';
import { randomBytes } from 'node:crypto';
import { CasefileInputError } from './errors';
import { RECORD_KINDS, type ArtifactEntry, type Docket, type DocketEntry, type DocketSubject, type JsonValue, type RecordEntry, type RecordKind, type UnsignedDocket } from './types';

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * A fresh `dkt_<uuidv7>` (RFC 9562: 48-bit unix ms, version 7, variant 10, random rest) — the same
 * shape as @exchange/platform `newId('dkt')`, without pulling the platform (gRPC, logging) into an
 * offline verifier.
 */
export function newDocketId(now: number = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b.writeUInt8(0x70 | (b.readUInt8(6) & 0x0f), 6);
  b.writeUInt8(0x80 | (b.readUInt8(8) & 0x3f), 8);
  const hex = b.toString('hex');
  return `dkt_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Hex sha256 of canonicalize(content): the hash a record entry carries. */
export function contentSha256(content: unknown): string {
  return sha256Hex(canonicalize(content));
}

/** A record entry: `content` is the record's JSON as the public API shows it. */
export function recordEntry(kind: RecordKind, ref: string, content: unknown): RecordEntry {
  if (!(RECORD_KINDS as readonly string[]).includes(kind)) throw new CasefileInputError(`unknown record kind ${String(kind)}`);
  if (typeof ref !== 'string' || ref === '') throw new CasefileInputError('record entry ref must be a non-empty string');
  if (content === undefined) throw new CasefileInputError(`record entry ${ref} has no content`);
  // Round-trip through canonical JSON so the entry holds exactly what gets hashed (Dates → strings).
  const json = JSON.parse(canonicalize(content)) as JsonValue;
  return { kind, ref, sha256: contentSha256(json), content: json };
}

/** An artifact entry (no content): `ref` is the artifact_ref, `sha256Hex` the hex of its bytes. */
export function artifactEntry(ref: string, sha256Hex: string, mediaType: string, sizeBytes: number): ArtifactEntry {
  if (!HEX64.test(sha256Hex)) throw new CasefileInputError('artifact sha256 must be 64 lowercase hex characters');
  if (typeof ref !== 'string' || ref === '') throw new CasefileInputError('artifact entry ref must be a non-empty string');
  if (typeof mediaType !== 'string' || mediaType === '') throw new CasefileInputError(`artifact ${ref} has no media type`);
  if (!Number.isSafeInteger(sizeBytes) || sizeBytes < 0) throw new CasefileInputError(`artifact ${ref} size must be a non-negative integer`);
  return { kind: 'artifact', ref, sha256: sha256Hex, media_type: mediaType, size_bytes: sizeBytes };
}

export interface SignDocketInput {
  subject: DocketSubject;
  entries: DocketEntry[];
  createdAt: Date | string;
  /** Defaults to a fresh `dkt_` id. */
  docketId?: string;
}

function privateKeyBytes(key: Uint8Array | string): Uint8Array {
  const bytes = typeof key === 'string' ? fromBase64(key) : key;
  if (bytes.length !== 32) throw new CasefileInputError('exchange private key must be a 32-byte ed25519 seed');
  return bytes;
}

/** The docket without its signature: exactly what the signature covers. */
export function unsignedDocket(docket: Docket): UnsignedDocket {
  const { signature: _signature, ...unsigned } = docket;
  return unsigned;
}

/**
 * Signs a docket with the exchange key (32-byte seed, raw or base64): `exchange_pubkey` is derived
 * from it, `signature` = base64 ed25519 over canonicalize(docket without `signature`).
 */
export function signDocket(input: SignDocketInput, exchangePrivateKey: Uint8Array | string): Docket {
  const seed = privateKeyBytes(exchangePrivateKey);
  const createdAt = input.createdAt instanceof Date ? input.createdAt : new Date(input.createdAt);
  if (Number.isNaN(createdAt.getTime())) throw new CasefileInputError('createdAt is not a valid date');
  const unsigned: UnsignedDocket = {
    docket_id: input.docketId ?? newDocketId(),
    subject: JSON.parse(canonicalize(input.subject)) as DocketSubject,
    entries: input.entries.map((e) => ({ ...e })),
    created_at: createdAt.toISOString(),
    exchange_pubkey: toBase64(publicKeyFromPrivate(seed)),
  };
  return { ...unsigned, signature: signCanonical(unsigned, seed) };
}

/** docket.json as stored in archives: the canonical JSON of the signed docket. */
export function docketJson(docket: Docket): string {
  return canonicalize(docket);
}
