import { extract } from 'tar-stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { crowdedArchive, tarHeader, zeroGzip, zeroPayloadArchive } from './archive-bombs';

const MiB = 1024 * 1024;

async function members(archive: Buffer): Promise<Array<{ name: string; size: number }>> {
  const ex = extract();
  const seen: Array<{ name: string; size: number }> = [];
  ex.on('entry', (header, stream, next) => {
    seen.push({ name: header.name, size: header.size ?? -1 });
    stream.on('end', next);
    stream.resume();
  });
  const done = new Promise((resolve, reject) => {
    ex.on('finish', () => resolve(undefined));
    ex.on('error', reject);
  });
  ex.end(gunzipSync(archive));
  await done;
  return seen;
}

describe('archive bombs', () => {
  it('writes a tar header a tar reader accepts, checksum included', async () => {
    const archive = Buffer.concat([tarHeader('a.txt', 3), Buffer.from('abc'), Buffer.alloc(509), Buffer.alloc(1024)]);
    expect(await members(gzipSync(archive))).toEqual([{ name: 'a.txt', size: 3 }]);
  });

  it('makes a payload member of the asked size from a small gzip', async () => {
    const bomb = await zeroPayloadArchive(8);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(gunzipSync(bomb).length).toBe(512 + 8 * MiB);
  });

  it('makes an archive of many empty members and plain zero gzip', async () => {
    const crowded = await crowdedArchive(50);
    expect(await members(crowded)).toHaveLength(50);
    expect(gunzipSync(await zeroGzip(2)).length).toBe(2 * MiB);
  });
});
