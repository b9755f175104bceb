// exchange keygen [--out <file>] [--force]
import { toBase64 } from '@exchange/crypto';
import type { Command } from 'commander';
import { generateAgentKeys } from '../../keys';
import { resolvePath } from '../context';
import type { CliIo } from '../io';
import { writeKeyFile } from '../key-file';
import { printJson } from '../output';

export function addKeygenCommand(program: Command, io: CliIo): void {
  program
    .command('keygen')
    .description('generate an ed25519 key pair (base64 JSON {public_key, private_key})')
    .option('--out <file>', 'write the key pair to this file (mode 0600) instead of stdout')
    .option('--force', 'overwrite --out if it exists')
    .action(async (opts: { out?: string; force?: boolean }) => {
      const keys = generateAgentKeys();
      if (opts.out === undefined) {
        printJson(io, { public_key: toBase64(keys.publicKey), private_key: toBase64(keys.privateKey) });
        return;
      }
      const file = resolvePath(io, opts.out);
      await writeKeyFile(file, keys, { overwrite: opts.force === true });
      // The private key stays in the file: stdout ends up in logs and terminals.
      printJson(io, { public_key: toBase64(keys.publicKey), key_file: file });
    });
}
