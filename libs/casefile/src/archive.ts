// Casefile archives: a .tar.gz (tar-stream + zlib) holding `docket.json` (canonical JSON of the
// signed docket) and `payloads/<sha256 hex>` per included artifact. Reading is defensive: the
// input may be hostile (not gzip, not tar, traversal names, links, bombs, duplicates).
import { sha256Hex } from '@exchange/crypto';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { docketJson } from './docket';
import { CasefileInputError, CasefileUnreadableError } from './errors';
import type { Docket } from './types';
import { verifyDocket, type VerifyDocketOptions } from './verify';

export const DOCKET_FILE = 'docket.json';
export const PAYLOAD_DIR = 'payloads';
const HEX64 = /^[0-9a-f]{64}$/;

export interface ArchiveLimits {
  /** Compressed input; default 64 MiB. */
  maxArchiveBytes: number;
  /** Everything after gunzip (tar headers and padding included); default 256 MiB. */
  maxUncompressedBytes: number;
  /** Tar members; default 10 000. */
  maxFiles: number;
  /** docket.json; default 32 MiB. */
  maxDocketBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 64 * 1024 * 1024,
  maxUncompressedBytes: 256 * 1024 * 1024,
  maxFiles: 10_000,
  maxDocketBytes: 32 * 1024 * 1024,
};

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
  return gzipSync(await collected);
}

function safeName(name: string): boolean {
  if (name === '' || name.length > 512 || name.includes('\0') || name.includes('\\') || name.startsWith('/')) return false;
  return name.replace(/\/$/, '').split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** Reads a casefile archive; CasefileUnreadableError (code casefile_unreadable) when it is not one. */
export async function readArchive(input: Uint8Array, limits: Partial<ArchiveLimits> = {}): Promise<ReadArchive> {
  const lim = { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (buf.length > lim.maxArchiveBytes) throw new CasefileUnreadableError(`archive is larger than ${lim.maxArchiveBytes} bytes`);
  if (buf.length < 2 || buf[0] !== 0x1f || buf[1] !== 0x8b) throw new CasefileUnreadableError('not a gzip file');
  let tarBytes: Buffer;
  try {
    tarBytes = gunzipSync(buf, { maxOutputLength: lim.maxUncompressedBytes });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new CasefileUnreadableError(`archive expands beyond ${lim.maxUncompressedBytes} bytes`);
    }
    throw new CasefileUnreadableError(`not a valid gzip file: ${(err as Error).message}`);
  }

  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  const reading = (async () => {
    let count = 0;
    for await (const entry of extract) {
      const { name, type } = entry.header;
      count += 1;
      if (count > lim.maxFiles) throw new CasefileUnreadableError(`archive has more than ${lim.maxFiles} files`);
      if (!safeName(name)) throw new CasefileUnreadableError(`unsafe file name in archive: ${JSON.stringify(name)}`);
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file') throw new CasefileUnreadableError(`archive member ${name} is a ${type}, only files are allowed`);
      if (files.has(name)) throw new CasefileUnreadableError(`archive has ${name} twice`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(name, Buffer.concat(chunks));
    }
  })();
  extract.end(tarBytes);
  try {
    await reading;
  } catch (err) {
    if (err instanceof CasefileUnreadableError) throw err;
    throw new CasefileUnreadableError(`not a valid tar archive: ${(err as Error).message}`);
  }

  const docketBytes = files.get(DOCKET_FILE);
  if (docketBytes === undefined) throw new CasefileUnreadableError(`archive has no ${DOCKET_FILE}`);
  if (docketBytes.length > lim.maxDocketBytes) throw new CasefileUnreadableError(`${DOCKET_FILE} is larger than ${lim.maxDocketBytes} bytes`);
  const text = docketBytes.toString('utf8');
  let docket: Docket;
  try {
    docket = JSON.parse(text) as Docket;
  } catch (err) {
    throw new CasefileUnreadableError(`${DOCKET_FILE} is not JSON: ${(err as Error).message}`);
  }
  const payloads = new Map<string, Buffer>();
  const extraFiles: string[] = [];
  for (const [name, data] of files) {
    if (name === DOCKET_FILE) continue;
    const hex = name.startsWith(`${PAYLOAD_DIR}/`) ? name.slice(PAYLOAD_DIR.length + 1) : '';
    if (HEX64.test(hex)) payloads.set(hex, data);
    else extraFiles.push(name);
  }
  return { docket, docketJson: text, payloads, extraFiles };
}

export interface VerifyArchiveOptions {
  trustedPublicKey?: string;
  limits?: Partial<ArchiveLimits>;
}

/** readArchive + verifyDocket with its payloads and extra files. Throws CasefileUnreadableError only. */
export async function verifyArchive(input: Uint8Array, options: VerifyArchiveOptions = {}) {
  const read = await readArchive(input, options.limits);
  const verifyOptions: VerifyDocketOptions = { payloads: read.payloads, extraFiles: read.extraFiles };
  if (options.trustedPublicKey !== undefined) verifyOptions.trustedPublicKey = options.trustedPublicKey;
  return verifyDocket(read.docket, verifyOptions);
}
