import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { errors } from '@exchange/platform';

export interface PutResult {
  /** Hex sha256 of the bytes (the store's key). */
  sha256: string;
  size: number;
}

/**
 * Content-addressed artifact bytes. `put` consumes the chunks one at a time (never the whole
 * artifact in memory), writes them to a temporary part and commits it under its sha256 only when
 * complete; more than `maxBytes` aborts with RESOURCE_EXHAUSTED `payload_too_large` and leaves
 * nothing behind. Storing bytes that exist already keeps the one copy.
 */
export interface ArtifactStore {
  readonly kind: 'file' | 's3';
  init(): Promise<void>;
  put(chunks: AsyncIterable<Uint8Array>, opts: { maxBytes: number }): Promise<PutResult>;
  /** The bytes; NOT_FOUND artifact_not_found when absent. */
  get(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
  delete(sha256: string): Promise<void>;
}

export function payloadTooLarge(maxBytes: number) {
  return errors.resourceExhausted('payload_too_large', `artifact exceeds ${maxBytes} bytes`, { max_bytes: maxBytes });
}

const HEX64 = /^[0-9a-f]{64}$/;

export function assertSha256Hex(sha256: string): void {
  if (!HEX64.test(sha256)) throw errors.invalidArgument('validation_failed', 'artifact key must be 64 lowercase hex digits');
}

/**
 * Writes `chunks` to `file` while hashing; aborts past `maxBytes` (the part is removed). One chunk
 * in memory at a time; the write stream's back-pressure is honoured.
 */
export async function spoolToFile(chunks: AsyncIterable<Uint8Array>, file: string, maxBytes: number): Promise<PutResult> {
  const hash = createHash('sha256');
  let size = 0;
  const out = fs.createWriteStream(file, { flags: 'wx' });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  try {
    for await (const chunk of chunks) {
      size += chunk.length;
      if (size > maxBytes) throw payloadTooLarge(maxBytes);
      hash.update(chunk);
      if (!out.write(chunk)) await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), failed]);
    }
    await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed]);
    return { sha256: hash.digest('hex'), size };
  } catch (err) {
    // The open is asynchronous: a source failing early can beat it, and the file would then be
    // created after our rm. Wait until the stream has closed its descriptor, then remove the part.
    if (!out.closed) {
      const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
      out.destroy();
      await closed;
    }
    await fsp.rm(file, { force: true });
    throw err;
  }
}

/** Filesystem store: `<dir>/<aa>/<sha256>`, parts in `<dir>/.parts/` renamed into place. */
export class FileStore implements ArtifactStore {
  readonly kind = 'file' as const;
  constructor(readonly dir: string) {}

  private pathOf(sha256: string): string {
    assertSha256Hex(sha256);
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  async init(): Promise<void> {
    await fsp.mkdir(path.join(this.dir, '.parts'), { recursive: true });
  }

  async put(chunks: AsyncIterable<Uint8Array>, opts: { maxBytes: number }): Promise<PutResult> {
    await this.init();
    const part = path.join(this.dir, '.parts', randomUUID());
    const result = await spoolToFile(chunks, part, opts.maxBytes);
    const final = this.pathOf(result.sha256);
    try {
      if (await this.has(result.sha256)) {
        await fsp.rm(part, { force: true });
      } else {
        await fsp.mkdir(path.dirname(final), { recursive: true });
        await fsp.rename(part, final);
      }
    } catch (err) {
      await fsp.rm(part, { force: true });
      throw err;
    }
    return result;
  }

  async get(sha256: string): Promise<Readable> {
    const file = this.pathOf(sha256);
    if (!(await this.has(sha256))) throw errors.notFound('artifact', `sha256:${sha256}`);
    return fs.createReadStream(file, { highWaterMark: 64 * 1024 });
  }

  async has(sha256: string): Promise<boolean> {
    const file = this.pathOf(sha256);
    try {
      await fsp.access(file);
      return true;
    } catch {
      return false;
    }
  }

  async delete(sha256: string): Promise<void> {
    await fsp.rm(this.pathOf(sha256), { force: true });
  }
}
