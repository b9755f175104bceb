// Key files written by `exchange keygen`: JSON {public_key, private_key}, standard base64, mode 0600.
import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import type { AgentKeys } from '../keys';
import { CliUsageError } from './output';

export interface KeyFileContents {
  public_key: string;
  private_key: string;
}

/** Refuses to overwrite unless `overwrite`, so a second keygen cannot destroy an identity. */
export async function writeKeyFile(file: string, keys: AgentKeys, opts: { overwrite?: boolean } = {}): Promise<void> {
  const contents: KeyFileContents = { public_key: toBase64(keys.publicKey), private_key: toBase64(keys.privateKey) };
  try {
    await writeFile(file, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600, flag: opts.overwrite ? 'w' : 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CliUsageError('key_file_exists', `${file} already exists (use --force to overwrite)`);
    }
    throw err;
  }
  // `mode` only applies when the file is created; an overwritten file keeps its old mode.
  await chmod(file, 0o600);
}

export async function readKeyFile(file: string): Promise<AgentKeys> {
  let parsed: Partial<KeyFileContents>;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<KeyFileContents>;
  } catch (err) {
    throw new CliUsageError('key_file_unreadable', `cannot read key file ${file}: ${(err as Error).message}`);
  }
  if (typeof parsed.private_key !== 'string' || typeof parsed.public_key !== 'string') {
    throw new CliUsageError('key_file_invalid', `${file} must hold {"public_key", "private_key"} (base64)`);
  }
  let privateKey: Uint8Array;
  let publicKey: Uint8Array;
  try {
    privateKey = fromBase64(parsed.private_key);
    publicKey = fromBase64(parsed.public_key);
    if (toBase64(publicKeyFromPrivate(privateKey)) !== toBase64(publicKey)) {
      throw new Error('public_key does not match private_key');
    }
  } catch (err) {
    throw new CliUsageError('key_file_invalid', `${file}: ${(err as Error).message}`);
  }
  return { privateKey, publicKey };
}
