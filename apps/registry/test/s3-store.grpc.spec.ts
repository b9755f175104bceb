import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import S3rver from 's3rver';
import { findFreePort } from '@exchange/db';
import { isDomainError } from '@exchange/platform';
import { putArtifact } from '../src/store/artifact-store';
import { S3Store } from '../src/store/s3-store';
import { grpcError, startRegistryHarness, status } from './registry-harness';

const MiB = 1024 * 1024;

async function* chunksOf(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let off = 0; off < bytes.length; off += size) yield bytes.subarray(off, off + size);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describe('S3 artifact store against s3rver (real S3 API over HTTP)', () => {
  let server: S3rver;
  let endpoint: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3-spool-'));
  const creds = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

  beforeAll(async () => {
    const port = await findFreePort();
    server = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dataDir });
    await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(spoolDir, { recursive: true, force: true });
  });

  it('put → content-addressed key, has, get byte-exact, same bytes once, delete', async () => {
    const store = new S3Store({ bucket: 'artifacts-unit', endpoint, region: 'us-east-1', forcePathStyle: true, spoolDir, ...creds });
    await store.init();
    const bytes = randomBytes(3 * MiB + 5);
    const hex = createHash('sha256').update(bytes).digest('hex');
    expect(await store.has(hex)).toBe(false);
    expect(await putArtifact(store, chunksOf(bytes), { maxBytes: 25 * MiB })).toEqual({ sha256: hex, size: bytes.length });
    expect(await putArtifact(store, chunksOf(bytes), { maxBytes: 25 * MiB })).toEqual({ sha256: hex, size: bytes.length });
    expect(await store.has(hex)).toBe(true);
    expect((await readAll(await store.get(hex))).equals(bytes)).toBe(true);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
    await store.delete(hex);
    expect(await store.has(hex)).toBe(false);
    await expect(store.get(hex)).rejects.toMatchObject({ code: 'artifact_not_found' });
    store.close();
  });

  it('over the limit: payload_too_large, no object, no spooled part', async () => {
    const store = new S3Store({ bucket: 'artifacts-unit', endpoint, region: 'us-east-1', forcePathStyle: true, spoolDir, ...creds });
    await store.init();
    const bytes = randomBytes(2 * MiB + 1);
    const hex = createHash('sha256').update(bytes).digest('hex');
    const err = await putArtifact(store, chunksOf(bytes), { maxBytes: 2 * MiB }).catch((e: unknown) => e);
    expect(isDomainError(err) && [err.grpcCode, err.code]).toEqual([status.RESOURCE_EXHAUSTED, 'payload_too_large']);
    expect(await store.has(hex)).toBe(false);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
    store.close();
  });

  it('a staged upload reaches the bucket only on commit; discarded, it leaves no object and no spooled part', async () => {
    const store = new S3Store({ bucket: 'artifacts-unit', endpoint, region: 'us-east-1', forcePathStyle: true, spoolDir, ...creds });
    await store.init();
    const bytes = randomBytes(MiB + 3);
    const hex = createHash('sha256').update(bytes).digest('hex');
    const dropped = await store.stage(chunksOf(bytes), { maxBytes: 2 * MiB });
    expect({ sha256: dropped.sha256, inBucket: await store.has(hex), spooled: fs.readdirSync(spoolDir).length }).toEqual({ sha256: hex, inBucket: false, spooled: 1 });
    await dropped.discard();
    expect({ inBucket: await store.has(hex), spooled: fs.readdirSync(spoolDir) }).toEqual({ inBucket: false, spooled: [] });
    const kept = await store.stage(chunksOf(bytes), { maxBytes: 2 * MiB });
    await kept.commit();
    expect({ inBucket: await store.has(hex), spooled: fs.readdirSync(spoolDir) }).toEqual({ inBucket: true, spooled: [] });
    await store.delete(hex);
    store.close();
  });

  it('registry with ARTIFACT_STORE_URL=s3://… uploads and downloads through it', async () => {
    const h = await startRegistryHarness({
      env: {
        ARTIFACT_STORE_URL: `s3://registry-it?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&force_path_style=true`,
        AWS_ACCESS_KEY_ID: creds.accessKeyId,
        AWS_SECRET_ACCESS_KEY: creds.secretAccessKey,
        ARTIFACT_MAX_BYTES: String(MiB + 1000),
      },
    });
    try {
      const owner = h.newAgent('owner');
      const bytes = randomBytes(MiB + 123);
      const up = await h.upload(bytes, { mediaType: 'application/octet-stream' }, h.as(owner));
      const hex = createHash('sha256').update(bytes).digest('hex');
      expect(up.artifact!.artifactRef).toBe(`sha256:${hex}`);
      const down = await h.download(up.artifact!.artifactRef, h.as(owner));
      expect(down.bytes.equals(bytes)).toBe(true);
      // the bytes are in the bucket, not in the harness's filesystem store
      expect(fs.readdirSync(h.storeDir)).toEqual([]);
      const check = new S3Store({ bucket: 'registry-it', endpoint, region: 'us-east-1', forcePathStyle: true, ...creds });
      expect(await check.has(hex)).toBe(true);
      const tooBigBytes = randomBytes(MiB + 1001);
      const tooBig = await grpcError(h.upload(tooBigBytes, { mediaType: 'application/octet-stream' }, h.as(owner)));
      expect([tooBig.grpcCode, tooBig.code]).toEqual([status.RESOURCE_EXHAUSTED, 'payload_too_large']);
      expect(await check.has(createHash('sha256').update(tooBigBytes).digest('hex'))).toBe(false);
      // Without its commit (the gateway refused the request) nothing reaches the bucket.
      const unsigned = randomBytes(300 * 1024);
      const notCommitted = await grpcError(h.upload(unsigned, { mediaType: 'application/octet-stream' }, h.as(owner), { kind: 'end' }));
      expect([notCommitted.grpcCode, notCommitted.code]).toEqual([status.ABORTED, 'upload_not_committed']);
      expect(await check.has(createHash('sha256').update(unsigned).digest('hex'))).toBe(false);
      check.close();
    } finally {
      await h.close();
    }
  }, 60_000);
});
