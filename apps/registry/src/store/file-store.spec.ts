import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { isDomainError } from '@exchange/platform';
import { FileStore, putArtifact, STALE_PART_MS } from './artifact-store';

async function* chunksOf(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let off = 0; off < bytes.length; off += size) yield bytes.subarray(off, off + size);
}

function files(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('FileStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-store-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores under <aa>/<sha256>, once; reads back byte-exact; deletes', async () => {
    const store = new FileStore(dir);
    const bytes = randomBytes(200_000);
    const hex = createHash('sha256').update(bytes).digest('hex');
    expect(await putArtifact(store, chunksOf(bytes), { maxBytes: 1_000_000 })).toEqual({ sha256: hex, size: 200_000 });
    expect(await putArtifact(store, chunksOf(bytes, 1000), { maxBytes: 1_000_000 })).toEqual({ sha256: hex, size: 200_000 });
    expect(files(dir)).toEqual([path.join(hex.slice(0, 2), hex)]);
    expect(await store.has(hex)).toBe(true);
    const back: Buffer[] = [];
    for await (const c of await store.get(hex)) back.push(c as Buffer);
    expect(Buffer.concat(back).equals(bytes)).toBe(true);
    await store.delete(hex);
    expect(await store.has(hex)).toBe(false);
    await expect(store.get(hex)).rejects.toMatchObject({ code: 'artifact_not_found' });
  });

  it('one byte over the limit: payload_too_large and no file or part left', async () => {
    const store = new FileStore(dir);
    const err = await putArtifact(store, chunksOf(randomBytes(1001), 100), { maxBytes: 1000 }).catch((e: unknown) => e);
    expect(isDomainError(err) && err.code).toBe('payload_too_large');
    expect(files(dir)).toEqual([]);
    expect(await putArtifact(store, chunksOf(randomBytes(1000), 100), { maxBytes: 1000 })).toMatchObject({ size: 1000 });
  });

  it('a failing source leaves no part behind', async () => {
    const store = new FileStore(dir);
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('partial');
      throw new Error('client went away');
    }
    await expect(putArtifact(store, broken(), { maxBytes: 1000 })).rejects.toThrow('client went away');
    expect(files(dir)).toEqual([]);
  });

  it('staged bytes are invisible until committed; a discarded stage leaves no file', async () => {
    const store = new FileStore(dir);
    const bytes = randomBytes(100_000);
    const hex = createHash('sha256').update(bytes).digest('hex');
    const dropped = await store.stage(chunksOf(bytes), { maxBytes: 1_000_000 });
    expect({ sha256: dropped.sha256, size: dropped.size, visible: await store.has(hex) }).toEqual({ sha256: hex, size: 100_000, visible: false });
    await dropped.discard();
    expect(files(dir)).toEqual([]);

    const kept = await store.stage(chunksOf(bytes), { maxBytes: 1_000_000 });
    await kept.commit();
    await kept.discard(); // after commit: nothing to remove, the committed file stays
    expect(files(dir)).toEqual([path.join(hex.slice(0, 2), hex)]);
  });

  it('init removes parts older than STALE_PART_MS and keeps recent ones', async () => {
    const parts = path.join(dir, '.parts');
    fs.mkdirSync(parts);
    fs.writeFileSync(path.join(parts, 'stale'), 'x');
    fs.writeFileSync(path.join(parts, 'live'), 'y');
    const old = (Date.now() - STALE_PART_MS - 60_000) / 1000;
    fs.utimesSync(path.join(parts, 'stale'), old, old);
    await new FileStore(dir).init();
    expect(files(dir)).toEqual([path.join('.parts', 'live')]);
  });

  it('refuses keys that are not sha256 hex', async () => {
    const store = new FileStore(dir);
    await expect(store.has('../../etc/passwd')).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
