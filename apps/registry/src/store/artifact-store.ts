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
 * Bytes written to a staging part while hashed and counted, not yet readable under their sha256.
 * Only `commit()` makes them visible; `discard()` removes the part (a refused or unauthenticated
 * upload leaves nothing behind). Both are safe to call again, and `discard()` after `commit()`.
 */
export interface StagedArtifact {
  readonly sha256: string;
  readonly size: number;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Content-addressed artifact bytes. `stage` consumes the chunks one at a time (never the whole
 * artifact in memory) into a staging part; more than `maxBytes` aborts with RESOURCE_EXHAUSTED
 * `payload_too_large` and leaves nothing behind. Committing bytes that exist already keeps the
 * one copy. `init` also removes parts older than STALE_PART_MS (left by a crash mid-upload).
 */
export interface ArtifactStore {
  readonly kind: 'file' | 's3';
  init(): Promise<void>;
  stage(chunks: AsyncIterable<Uint8Array>, opts: { maxBytes: number }): Promise<StagedArtifact>;
  /** The bytes; NOT_FOUND artifact_not_found when absent. */
  get(sha256: string): Promise<Readable>;
  has(sha256: string): Promise<boolean>;
  delete(sha256: string): Promise<void>;
}

/** A part this old belongs to no live upload (the gateway's stream deadline is 10 minutes). */
export const STALE_PART_MS = 60 * 60 * 1000;

/** stage + commit in one step (tools and tests; uploads commit only once authenticated). */
export async function putArtifact(store: ArtifactStore, chunks: AsyncIterable<Uint8Array>, opts: { maxBytes: number }): Promise<PutResult> {
  const staged = await store.stage(chunks, opts);
  try {
    await staged.commit();
  } finally {
    await staged.discard();
  }
  return { sha256: staged.sha256, size: staged.size };
}

/** Removes the files in `dir` whose name starts with `prefix` and that were last written before `olderThan`. */
export async function removeStaleParts(dir: string, prefix: string, olderThan: number): Promise<void> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const file = path.join(dir, name);
    const stat = await fsp.stat(file).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < olderThan) await fsp.rm(file, { force: true });
  }
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

/** Filesystem store: `<dir>/<aa>/<sha256>`, staging parts in `<dir>/.parts/` renamed into place on commit. */
export class FileStore implements ArtifactStore {
  readonly kind = 'file' as const;
  constructor(readonly dir: string) {}

  private get partsDir(): string {
    return path.join(this.dir, '.parts');
  }

  private pathOf(sha256: string): string {
    assertSha256Hex(sha256);
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  async init(): Promise<void> {
    await fsp.mkdir(this.partsDir, { recursive: true });
    await removeStaleParts(this.partsDir, '', Date.now() - STALE_PART_MS);
  }

  async stage(chunks: AsyncIterable<Uint8Array>, opts: { maxBytes: number }): Promise<StagedArtifact> {
    await fsp.mkdir(this.partsDir, { recursive: true });
    const part = path.join(this.partsDir, randomUUID());
    const result = await spoolToFile(chunks, part, opts.maxBytes);
    const final = this.pathOf(result.sha256);
    const discard = () => fsp.rm(part, { force: true });
    let committed = false;
    return {
      ...result,
      discard,
      commit: async () => {
        if (committed) return;
        try {
          if (await this.has(result.sha256)) {
            await discard();
          } else {
            await fsp.mkdir(path.dirname(final), { recursive: true });
            await fsp.rename(part, final);
          }
          committed = true;
        } catch (err) {
          await discard();
          throw err;
        }
      },
    };
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
