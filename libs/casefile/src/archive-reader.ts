// Reading a casefile archive as a stream (issue 12 finding 8). The input may be hostile: gunzip
// runs asynchronously (zlib's thread pool), inflating only as fast as the tar parser consumes,
// and every limit is checked while the bytes flow — a bomb is refused after at most
// `maxUncompressedBytes` of inflation, memory stays at the stream buffers (payloads are hashed as
// they pass; their bytes are kept only when asked), and the event loop is never held for long.
import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { CasefileTooLargeError, CasefileUnreadableError } from './errors';

export const DOCKET_FILE = 'docket.json';

export interface ArchiveLimits {
  /** Compressed input; default 64 MiB. */
  maxArchiveBytes: number;
  /** Everything after gunzip (tar headers and padding included); default 128 MiB. */
  maxUncompressedBytes: number;
  /** Tar members (directories included); default 10 000. */
  maxFiles: number;
  /** docket.json; default 32 MiB. */
  maxDocketBytes: number;
  /**
   * Past `inflationRatioFloorBytes` (default 16 MiB), at most this many inflated bytes per
   * compressed byte read (default 20): a bomb is refused after the floor, not after the cap.
   */
  maxInflationRatio: number;
  inflationRatioFloorBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 64 * 1024 * 1024,
  maxUncompressedBytes: 128 * 1024 * 1024,
  maxFiles: 10_000,
  maxDocketBytes: 32 * 1024 * 1024,
  maxInflationRatio: 20,
  inflationRatioFloorBytes: 16 * 1024 * 1024,
};

/** The archive bytes, whole or as a stream (a file read stream, an HTTP body). */
export type ArchiveInput = Uint8Array | AsyncIterable<Uint8Array>;

/** A file of the archive other than docket.json. */
export interface ArchiveFile {
  name: string;
  size: number;
  /** Hex sha256 of its bytes. */
  sha256: string;
  /** Its bytes, when the scan was asked to keep them. */
  bytes?: Buffer;
}

export interface ScannedArchive {
  docketBytes: Buffer;
  files: ArchiveFile[];
}

function safeName(name: string): boolean {
  if (name === '' || name.length > 512 || name.includes('\0') || name.includes('\\') || name.startsWith('/')) return false;
  return name.replace(/\/$/, '').split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

const asBuffer = (chunk: Uint8Array): Buffer => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));

/** Passes bytes on while counting them; `refuse(total)` may stop the stream with an error. */
function counted(refuse: (total: number, head: Buffer) => Error | null, atEnd?: (total: number, head: Buffer) => Error | null): Transform {
  let total = 0;
  let head = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Uint8Array, _encoding: BufferEncoding, callback: TransformCallback) {
      const buf = asBuffer(chunk);
      total += buf.length;
      if (head.length < 2) head = Buffer.concat([head, buf.subarray(0, 2 - head.length)]);
      const err = refuse(total, head);
      if (err) return callback(err);
      callback(null, buf);
    },
    flush(callback: TransformCallback) {
      callback(atEnd?.(total, head) ?? null);
    },
  });
}

const notGzip = (head: Buffer): Error | null =>
  (head.length >= 1 && head[0] !== 0x1f) || (head.length === 2 && head[1] !== 0x8b) ? new CasefileUnreadableError('not a gzip file') : null;

/** Reads one member to its end: hashed, counted, kept when `keep` (at most `max` bytes when given). */
async function readMember(entry: AsyncIterable<unknown>, keep: boolean, max?: { bytes: number; error: () => Error }) {
  const hash = createHash('sha256');
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    const buf = asBuffer(chunk as Uint8Array);
    size += buf.length;
    if (max && size > max.bytes) throw max.error();
    hash.update(buf);
    if (keep) parts.push(buf);
  }
  return { size, sha256: hash.digest('hex'), bytes: keep ? Buffer.concat(parts) : undefined };
}

function unreadable(err: unknown, stage: 'gzip' | 'tar'): CasefileUnreadableError {
  if (err instanceof CasefileUnreadableError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new CasefileUnreadableError(stage === 'gzip' ? `not a valid gzip file: ${message}` : `not a valid tar archive: ${message}`);
}

/**
 * Streams the archive through gunzip and tar with every limit enforced on the way; refuses
 * (CasefileUnreadableError, or CasefileTooLargeError for a limit) unsafe names, links and other
 * non-files, duplicates, and an archive without docket.json.
 */
export async function scanArchive(input: ArchiveInput, limits: ArchiveLimits, opts: { keepBytes: boolean }): Promise<ScannedArchive> {
  // Byte mode: at most one small read-ahead from a streamed input.
  const source = Readable.from(input instanceof Uint8Array ? [asBuffer(input)] : input, { objectMode: false });
  let gzipError: unknown = null;
  let inflatedEnd!: () => void;
  const inflatedDone = new Promise<void>((resolve) => (inflatedEnd = resolve));
  let compressed = 0;
  const inflated = pipeline(
    source,
    counted(
      (total, head) => {
        compressed = total;
        if (total > limits.maxArchiveBytes) return new CasefileTooLargeError(`archive is larger than ${limits.maxArchiveBytes} bytes`);
        return notGzip(head);
      },
      (_total, head) => (head.length < 2 ? new CasefileUnreadableError('not a gzip file') : null),
    ),
    createGunzip({ chunkSize: 64 * 1024 }),
    counted((total) => {
      if (total > limits.maxUncompressedBytes) return new CasefileTooLargeError(`archive expands beyond ${limits.maxUncompressedBytes} bytes`);
      if (total > limits.inflationRatioFloorBytes && total > limits.maxInflationRatio * compressed) {
        return new CasefileTooLargeError(`archive expands more than ${limits.maxInflationRatio} times its compressed size`);
      }
      return null;
    }),
    (err) => {
      if (err) gzipError ??= err;
      inflatedEnd();
    },
  );
  const extract = tar.extract();
  // A failure before tar (gzip, a limit) ends the tar parser with that error.
  inflated.on('error', (err) => {
    gzipError ??= err;
    extract.destroy(err);
  });
  inflated.pipe(extract as unknown as NodeJS.WritableStream);

  let docketBytes: Buffer | undefined;
  const files: ArchiveFile[] = [];
  const names = new Set<string>();
  let members = 0;
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      members += 1;
      if (members > limits.maxFiles) throw new CasefileTooLargeError(`archive has more than ${limits.maxFiles} files`);
      if (!safeName(name)) throw new CasefileUnreadableError(`unsafe file name in archive: ${JSON.stringify(name)}`);
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file') throw new CasefileUnreadableError(`archive member ${name} is a ${type}, only files are allowed`);
      if (names.has(name)) throw new CasefileUnreadableError(`archive has ${name} twice`);
      names.add(name);
      if (name === DOCKET_FILE) {
        const tooBig = () => new CasefileTooLargeError(`${DOCKET_FILE} is larger than ${limits.maxDocketBytes} bytes`);
        docketBytes = (await readMember(entry, true, { bytes: limits.maxDocketBytes, error: tooBig })).bytes;
      } else {
        files.push({ name, ...(await readMember(entry, opts.keepBytes)) });
      }
    }
    // tar can end before gunzip has checked the trailer (a truncated gzip): wait for its verdict.
    await inflatedDone;
  } catch (err) {
    throw unreadable(gzipError ?? err, gzipError ? 'gzip' : 'tar');
  } finally {
    // Stops gunzip at once when tar parsing gave up first (or a limit was hit).
    inflated.destroy();
    source.destroy();
  }
  if (gzipError) throw unreadable(gzipError, 'gzip');
  if (docketBytes === undefined) throw new CasefileUnreadableError(`archive has no ${DOCKET_FILE}`);
  return { docketBytes, files };
}
