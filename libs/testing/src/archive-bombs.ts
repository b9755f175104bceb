// Hostile casefile archives for tests and benchmarks (issue 12 finding 8): built as streams, so
// an archive that inflates to hundreds of MiB never sits inflated in memory here either.
import { createGzip } from 'node:zlib';

const MiB = 1024 * 1024;

/** A ustar header block of a regular file of `size` bytes (the tar format, by hand, so the
 *  size can exceed what a test would want to hold to feed a tar library). */
export function tarHeader(name: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, '0')}\0`;
  block.write(name, 0, 'utf8');
  block.write(octal(0o644, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(0, 12), 136);
  block.write('        ', 148); // the checksum counts its own field as spaces
  block.write('0', 156);
  block.write('ustar\u000000', 257);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

/** gzip (level 9) of the blocks, compressed as they come. */
export async function gzipOf(blocks: Iterable<Buffer>): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  for (const block of blocks) if (!gzip.write(block)) await new Promise((resolve) => gzip.once('drain', resolve));
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

function* zeros(mib: number): Generator<Buffer> {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < mib; i++) yield block;
}

/** gzip of `mib` MiB of zeros, not a tar at all (~1 KiB per MiB). */
export function zeroGzip(mib: number): Promise<Buffer> {
  return gzipOf(zeros(mib));
}

/** A .tar.gz with one payload member of `mib` MiB of zeros: 300 MiB is ~300 KiB of gzip. */
export function zeroPayloadArchive(mib: number): Promise<Buffer> {
  return gzipOf(
    (function* () {
      yield tarHeader(`payloads/${'0'.repeat(64)}`, mib * MiB);
      yield* zeros(mib);
    })(),
  );
}

/** A .tar.gz of `count` empty members (past a member cap long before its end). */
export function crowdedArchive(count: number): Promise<Buffer> {
  return gzipOf(
    (function* () {
      for (let i = 0; i < count; i++) yield tarHeader(`f${i}`, 0);
    })(),
  );
}
