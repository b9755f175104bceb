// exchange wallet balance|faucet|transfer <agent_id> [--key <file>]
// With --key the request is signed as <agent_id> with that key file; otherwise the operator token
// (--token / EXCHANGE_OPERATOR_TOKEN) is used. Mutations print the result and the idempotency key
// (stderr) so a retry can reuse it with --idempotency-key.
import type { Command } from 'commander';
import { ExchangeClient } from '../../client';
import { idempotencyOf } from '../../idempotency';
import { globalOptions, resolvePath } from '../context';
import type { CliIo } from '../io';
import { readKeyFile } from '../key-file';
import { printJson } from '../output';

interface AuthOptions {
  key?: string;
}

async function walletClient(command: Command, io: CliIo, agentId: string, opts: AuthOptions): Promise<ExchangeClient> {
  const { baseUrl, token } = globalOptions(command, io);
  if (opts.key !== undefined) {
    const keys = await readKeyFile(resolvePath(io, opts.key));
    return new ExchangeClient({ baseUrl, agent: { agentId, privateKey: keys.privateKey }, fetch: io.fetch });
  }
  return new ExchangeClient({ baseUrl, operatorToken: token, fetch: io.fetch });
}

function printMutation(io: CliIo, result: unknown): void {
  const info = idempotencyOf(result);
  if (info) io.stderr(`idempotency_key: ${info.key}${info.replayed ? ' (replayed)' : ''}\n`);
  printJson(io, result);
}

const KEY_OPTION = ['--key <file>', 'sign as the agent with this key file (else the operator token is used)'] as const;
const IDEMPOTENCY_OPTION = ['--idempotency-key <key>', 'reuse the key of an earlier attempt when retrying (default: a new key)'] as const;

export function addWalletCommand(program: Command, io: CliIo): void {
  const wallet = program.command('wallet').description('balances, faucet and transfers');

  wallet
    .command('balance')
    .description('show the balance snapshot of a wallet')
    .argument('<agent_id>')
    .option(...KEY_OPTION)
    .action(async (agentId: string, opts: AuthOptions, command: Command) => {
      printJson(io, await (await walletClient(command, io, agentId, opts)).wallets.getBalance(agentId));
    });

  wallet
    .command('faucet')
    .description('credit sandbox funds (at most 200 CREDIT per category per UTC day)')
    .argument('<agent_id>')
    .requiredOption('--amount <amount>', 'decimal string, e.g. 50 or 12.5')
    .requiredOption('--category <category>', 'the daily cap applies per category')
    .option(...IDEMPOTENCY_OPTION)
    .option(...KEY_OPTION)
    .action(async (agentId: string, opts: AuthOptions & { amount: string; category: string; idempotencyKey?: string }, command: Command) => {
      const client = await walletClient(command, io, agentId, opts);
      printMutation(io, await client.wallets.faucet(agentId, { amount: opts.amount, category: opts.category, idempotencyKey: opts.idempotencyKey }));
    });

  wallet
    .command('transfer')
    .description('transfer funds to another agent')
    .argument('<agent_id>', 'the paying wallet')
    .requiredOption('--to <agent_id>', 'the receiving agent')
    .requiredOption('--amount <amount>', 'decimal string, e.g. 12.5')
    .option('--currency <currency>', 'CREDIT or an ISO 4217 code', 'CREDIT')
    .option('--memo <text>', 'kept with the transfer')
    .option(...IDEMPOTENCY_OPTION)
    .option(...KEY_OPTION)
    .action(
      async (
        agentId: string,
        opts: AuthOptions & { to: string; amount: string; currency: string; memo?: string; idempotencyKey?: string },
        command: Command,
      ) => {
        const client = await walletClient(command, io, agentId, opts);
        printMutation(
          io,
          await client.wallets.transfer(agentId, {
            toAgentId: opts.to,
            amount: opts.amount,
            currency: opts.currency,
            memo: opts.memo,
            idempotencyKey: opts.idempotencyKey,
          }),
        );
      },
    );
}
