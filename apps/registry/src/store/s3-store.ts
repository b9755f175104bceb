import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { errors } from '@exchange/platform';
import { assertSha256Hex, removeStaleParts, spoolToFile, STALE_PART_MS, type ArtifactStore, type StagedArtifact } from './artifact-store';

export interface S3StoreOptions {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Where parts are spooled before the upload (default: the OS temp dir). */
  spoolDir?: string;
}

/** Spooled parts in the (shared) spool directory are recognised by this prefix. */
const PART_PREFIX = 'registry-part-';

/**
 * S3-compatible store: object key = sha256 hex. The bytes are staged in a local part file while
 * hashed and size-checked, and sent to the bucket with a known length only on commit, so a
 * refused, failed or unauthenticated upload never leaves an object in the bucket.
 */
export class S3Store implements ArtifactStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly opts: S3StoreOptions) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      // Checksums only where S3 requires them: the default streams PUT bodies as aws-chunked with
      // CRC trailers, which S3-compatible stores (MinIO versions, s3rver) may store verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials:
        opts.accessKeyId !== undefined && opts.secretAccessKey !== undefined
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
    });
  }

  private get spoolDir(): string {
    return this.opts.spoolDir ?? os.tmpdir();
  }

  /** Creates the bucket when it does not exist (sandbox, tests); removes stale spooled parts. */
  async init(): Promise<void> {
    await removeStaleParts(this.spoolDir, PART_PREFIX, Date.now() - STALE_PART_MS);
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.opts.bucket }));
    } catch {
      await this.client.send(new CreateBucketCommand({ Bucket: this.opts.bucket }));
    }
  }

  async stage(chunks: AsyncIterable<Uint8Array>, opts: { maxBytes: number }): Promise<StagedArtifact> {
    await fsp.mkdir(this.spoolDir, { recursive: true });
    const part = path.join(this.spoolDir, `${PART_PREFIX}${randomUUID()}`);
    const result = await spoolToFile(chunks, part, opts.maxBytes);
    const discard = () => fsp.rm(part, { force: true });
    let committed = false;
    return {
      ...result,
      discard,
      commit: async () => {
        if (committed) return;
        try {
          if (!(await this.has(result.sha256))) {
            await this.client.send(
              new PutObjectCommand({ Bucket: this.opts.bucket, Key: result.sha256, Body: fs.createReadStream(part), ContentLength: result.size }),
            );
          }
          committed = true;
        } finally {
          await discard();
        }
      },
    };
  }

  async get(sha256: string): Promise<Readable> {
    assertSha256Hex(sha256);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: sha256 }));
      const body = out.Body;
      if (body instanceof Readable) return body;
      throw new Error('S3 body is not a Node stream');
    } catch (err) {
      if (isNotFound(err)) throw errors.notFound('artifact', `sha256:${sha256}`);
      throw err;
    }
  }

  async has(sha256: string): Promise<boolean> {
    assertSha256Hex(sha256);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: sha256 }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(sha256: string): Promise<void> {
    assertSha256Hex(sha256);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: sha256 }));
  }

  close(): void {
    this.client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
