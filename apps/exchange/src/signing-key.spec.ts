import { fromBase64 } from '@exchange/crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSigningKey } from './signing-key';

describe('loadOrCreateSigningKey', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'signing-key-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('generates a 32-byte seed once, private to the owner, and returns the same one afterwards', async () => {
    const first = await loadOrCreateSigningKey(dir);
    expect(fromBase64(first)).toHaveLength(32);
    expect((await stat(join(dir, 'exchange-signing-key'))).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateSigningKey(dir)).toBe(first);
  });

  it('prefers EXCHANGE_SIGNING_KEY and refuses one that is not a 32-byte seed', async () => {
    const configured = Buffer.alloc(32, 7).toString('base64');
    expect(await loadOrCreateSigningKey(dir, configured)).toBe(configured);
    await expect(loadOrCreateSigningKey(dir, Buffer.alloc(31).toString('base64'))).rejects.toThrow('EXCHANGE_SIGNING_KEY');
    await expect(readFile(join(dir, 'exchange-signing-key'))).rejects.toThrow();
  });

  it('refuses a corrupted key file instead of silently replacing the key', async () => {
    await writeFile(join(dir, 'exchange-signing-key'), 'not-a-key');
    await expect(loadOrCreateSigningKey(dir)).rejects.toThrow();
  });
});
