// Casefile archives: a .tar.gz (tar-stream + zlib) holding `docket.json` (canonical JSON of the
// signed docket) and `payloads/<sha256 hex>` per included artifact. Reading is defensive and
// streamed (archive-reader.ts): the input may be hostile (not gzip, not tar, traversal names,
// links, bombs, duplicates, too many members).
import { sha256Hex } from '@exchange/crypto';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { DEFAULT_ARCHIVE_LIMITS, DOCKET_FILE, scanArchive, type ArchiveInput, type ArchiveLimits } from './archive-reader';
import { docketJson } from './docket';
import { CasefileInputError, CasefileUnreadableError } from './errors';
import type { Docket } from './types';
import { verifyDocket, type VerifyDocketOptions } from './verify';

export const PAYLOAD_DIR = 'payloads';
const HEX64 = /^[0-9a-f]{64}$/;
const gzipAsync = promisify(gzip);

export interface ReadArchive {
  /** docket.json parsed (not yet verified: its shape is checked by verifyDocket). */
  docket: Docket;
  docketJson: string;
  /** `payloads/<hex>` files by hex. */
  payloads: Map<string, Buffer>;
  /** Any other file names in the archive (directories excluded). */
  extraFiles: string[];
}

async function toBuffer(source: Buffer | Uint8Array | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(source)) return source;
  if (source instanceof Uint8Array) return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/**
 * The archive of a docket. Each payload (keyed by hex sha256) must belong to an artifact entry and
 * hash to it, else CasefileInputError. Deterministic: files sorted, mtime = created_at.
 */
export async function writeArchive(docket: Docket, payloads: Map<string, Buffer | Uint8Array | Readable> = new Map()): Promise<Buffer> {
  const artifacts = new Map(docket.entries.filter((e) => e.kind === 'artifact').map((e) => [e.sha256, e]));
  const files: Array<{ name: string; data: Buffer }> = [];
  for (const [hex, source] of payloads) {
    const entry = artifacts.get(hex);
    if (!HEX64.test(hex) || entry === undefined) throw new CasefileInputError(`payload ${hex} is not an artifact entry of the docket`);
    const data = await toBuffer(source);
    if (sha256Hex(data) !== hex) throw new CasefileInputError(`payload ${hex} does not hash to its name`);
    files.push({ name: `${PAYLOAD_DIR}/${hex}`, data });
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const mtime = new Date(docket.created_at);
  const pack = tar.pack();
  const collected = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  })();
  const add = (name: string, data: Buffer) =>
    new Promise<void>((resolve, reject) => {
      pack.entry({ name, size: data.length, mode: 0o644, mtime: Number.isNaN(mtime.getTime()) ? new Date(0) : mtime, type: 'file' }, data, (err) => (err ? reject(err) : resolve()));
    });
  await add(DOCKET_FILE, Buffer.from(docketJson(docket), 'utf8'));
  for (const file of files) await add(file.name, file.data);
  pack.finalize();
  return gzipAsync(await collected);
}

function parseDocket(bytes: Buffer): { docket: Docket; text: string } {
  const text = bytes.toString('utf8');
  try {
    return { docket: JSON.parse(text) as Docket, text };
  } catch (err) {
    throw new CasefileUnreadableError(`${DOCKET_FILE} is not JSON: ${(err as Error).message}`);
  }
}

const payloadHex = (name: string): string | null => {
  const hex = name.startsWith(`${PAYLOAD_DIR}/`) ? name.slice(PAYLOAD_DIR.length + 1) : '';
  return HEX64.test(hex) ? hex : null;
};

/**
 * Reads a casefile archive with its payload bytes in memory (tools, tests); CasefileUnreadableError
 * (code casefile_unreadable) when it is not one, CasefileTooLargeError past a limit.
 */
export async function readArchive(input: ArchiveInput, limits: Partial<ArchiveLimits> = {}): Promise<ReadArchive> {
  const scanned = await scanArchive(input, { ...DEFAULT_ARCHIVE_LIMITS, ...limits }, { keepBytes: true });
  const { docket, text } = parseDocket(scanned.docketBytes);
  const payloads = new Map<string, Buffer>();
  const extraFiles: string[] = [];
  for (const file of scanned.files) {
    const hex = payloadHex(file.name);
    if (hex !== null && file.bytes) payloads.set(hex, file.bytes);
    else extraFiles.push(file.name);
  }
  return { docket, docketJson: text, payloads, extraFiles };
}

export interface VerifyArchiveOptions {
  trustedPublicKey?: string;
  limits?: Partial<ArchiveLimits>;
}

/**
 * Verifies an archive as it streams: payloads are hashed on the way, never held in memory.
 * Throws CasefileUnreadableError (CasefileTooLargeError past a limit) only.
 */
export async function verifyArchive(input: ArchiveInput, options: VerifyArchiveOptions = {}) {
  const scanned = await scanArchive(input, { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits }, { keepBytes: false });
  const { docket } = parseDocket(scanned.docketBytes);
  const payloadDigests = new Map<string, { sha256: string; size: number }>();
  const extraFiles: string[] = [];
  for (const file of scanned.files) {
    const hex = payloadHex(file.name);
    if (hex !== null) payloadDigests.set(hex, { sha256: file.sha256, size: file.size });
    else extraFiles.push(file.name);
  }
  const verifyOptions: VerifyDocketOptions = { payloadDigests, extraFiles };
  if (options.trustedPublicKey !== undefined) verifyOptions.trustedPublicKey = options.trustedPublicKey;
  return verifyDocket(docket, verifyOptions);
}
