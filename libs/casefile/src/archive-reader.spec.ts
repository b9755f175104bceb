import { generateKeyPair, sha256Hex, toBase64 } from '@exchange/crypto';
import { zeroGzip } from '@exchange/testing';
import { createGzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { artifactEntry, CasefileTooLargeError, CasefileUnreadableError, recordEntry, signDocket, verifyArchive, writeArchive } from './index';

// The streaming reader (issue 12 finding 8): limits hold while the bytes flow, so a hostile
// archive is refused after a bounded amount of work — asserted as bytes pulled from the input.

const MiB = 1024 * 1024;
const keys = generateKeyPair();
const trusted = toBase64(keys.publicKey);

/** The bytes in `slice`-sized chunks, counting how many were pulled. */
function metered(bytes: Buffer, slice = 16 * 1024) {
  const meter = { pulled: 0 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let off = 0; off < bytes.length; off += slice) {
      const chunk = bytes.subarray(off, off + slice);
      meter.pulled += chunk.length;
      yield chunk;
    }
  }
  return { meter, chunks: chunks() };
}

async function tarGzOf(count: number): Promise<Buffer> {
  const pack = tar.pack();
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  pack.pipe(gzip);
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve, reject) => pack.entry({ name: `f${i}`, size: 1 }, Buffer.from('x'), (e) => (e ? reject(e) : resolve())));
  }
  pack.finalize();
  await done;
  return Buffer.concat(out);
}

describe('streaming archive reader', () => {
  it('refuses a gzip bomb after inflating at most the cap, having pulled only a small part of the input', async () => {
    const bomb = await zeroGzip(256);
    expect(bomb.length).toBeLessThan(MiB);
    const { meter, chunks } = metered(bomb);
    const err = await verifyArchive(chunks, { limits: { maxUncompressedBytes: MiB } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CasefileTooLargeError);
    expect(err).toMatchObject({ code: 'payload_too_large', message: `archive expands beyond ${MiB} bytes` });
    // 1 MiB of zeros is ~1 KiB of gzip; the rest is read-ahead of a few 16 KiB slices.
    expect(meter.pulled).toBeLessThan(bomb.length / 4);
  });

  it('refuses a bomb under the absolute cap once it inflates more than 20-fold past the 16 MiB floor', async () => {
    const bomb = await zeroGzip(100);
    const { meter, chunks } = metered(bomb);
    const err = await verifyArchive(chunks).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'payload_too_large', message: 'archive expands more than 20 times its compressed size' });
    expect(meter.pulled).toBeLessThan(bomb.length / 2);
    // A well-compressible archive under the floor is read whole.
    const small = await zeroGzip(8);
    const underFloor = await verifyArchive(small, { limits: { maxInflationRatio: 1 } }).catch((e: unknown) => e);
    expect((underFloor as Error).message).toMatch(/not a valid tar archive|archive has no docket.json/);
  });

  it('refuses too many members before reading the rest of the archive', async () => {
    const archive = await tarGzOf(20_000);
    const { meter, chunks } = metered(archive, 4 * 1024);
    const err = await verifyArchive(chunks, { limits: { maxFiles: 1000 } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'payload_too_large', message: 'archive has more than 1000 files' });
    expect(meter.pulled).toBeLessThan(archive.length / 2);
  });

  it('verifies an archive given as a stream of chunks, hashing payloads as they pass', async () => {
    const payload = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 253));
    const hex = sha256Hex(payload);
    const docket = signDocket(
      { subject: { contract_id: 'ctr_x' }, entries: [recordEntry('contract', 'ctr_x', { a: 1 }), artifactEntry(`sha256:${hex}`, hex, 'application/octet-stream', payload.length)], createdAt: new Date() },
      keys.privateKey,
    );
    const archive = await writeArchive(docket, new Map([[hex, payload]]));
    const result = await verifyArchive(metered(archive, 1000).chunks, { trustedPublicKey: trusted });
    expect(result.checks.find((c) => c.ref === `sha256:${hex}`)).toEqual({ ref: `sha256:${hex}`, ok: true });
    expect(result.valid).toBe(true);
  });

  it('refuses a gzip whose trailer is cut off even though the tar inside is complete', async () => {
    const docket = signDocket({ subject: {}, entries: [], createdAt: new Date() }, keys.privateKey);
    const archive = await writeArchive(docket);
    const err = await verifyArchive(archive.subarray(0, archive.length - 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CasefileUnreadableError);
    expect((err as Error).message).toMatch(/not a valid gzip file/);
  });
});
