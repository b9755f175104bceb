import { fromBase64, generateKeyPair, toBase64 } from '@exchange/crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// The exchange's own ed25519 key (receipts, dockets, reveals). In sandbox it is generated once
// and kept in the data directory so that signatures stay verifiable across restarts.
export async function loadOrCreateSigningKey(dataDir: string, configured?: string): Promise<string> {
  if (configured) {
    if (fromBase64(configured).length !== 32) throw new Error('EXCHANGE_SIGNING_KEY must be the base64 of a 32-byte ed25519 seed');
    return configured;
  }
  const file = join(dataDir, 'exchange-signing-key');
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (fromBase64(stored).length === 32) return stored;
    throw new Error(`${file} does not hold a base64 32-byte seed; remove it to generate a new key`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const seed = toBase64(generateKeyPair().privateKey);
  await writeFile(file, seed + '\n', { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return seed;
}
