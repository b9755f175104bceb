// exchange register --agent-id <id> --key <file> [--identity-level L] [--pubkey <b64>...]
import type { Command } from 'commander';
import { IDENTITY_LEVELS, isIdentityLevel } from '../../keys';
import { clientFor, globalOptions, resolvePath } from '../context';
import type { CliIo } from '../io';
import { readKeyFile } from '../key-file';
import { CliUsageError, printJson } from '../output';

export function addRegisterCommand(program: Command, io: CliIo): void {
  program
    .command('register')
    .description('register an agent with a key-ownership proof (needs the operator token)')
    .requiredOption('--agent-id <id>', 'agent id, <namespace>:agent:<name>')
    .requiredOption('--key <file>', 'key file from `exchange keygen --out`')
    .option('--identity-level <level>', `one of ${IDENTITY_LEVELS.join(', ')}`, 'SANDBOX_UNVERIFIED')
    .option('--pubkey <base64>', 'additional public key for rotation (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .action(async (opts: { agentId: string; key: string; identityLevel: string; pubkey: string[] }, command: Command) => {
      if (!isIdentityLevel(opts.identityLevel)) {
        throw new CliUsageError('invalid_identity_level', `--identity-level must be one of ${IDENTITY_LEVELS.join(', ')}`);
      }
      if (globalOptions(command, io).token === undefined) {
        throw new CliUsageError('operator_token_required', 'register needs the operator token (--token or EXCHANGE_OPERATOR_TOKEN)');
      }
      const keys = await readKeyFile(resolvePath(io, opts.key));
      const agent = await clientFor(command, io).agents.registerAgent({
        agentId: opts.agentId,
        keys,
        identityLevel: opts.identityLevel,
        additionalPublicKeys: opts.pubkey,
      });
      printJson(io, agent);
    });
}
