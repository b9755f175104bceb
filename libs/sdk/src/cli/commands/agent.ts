// exchange agent get|list|transitions — readable by an operator or, with --key, as an agent (signed);
// exchange agent identity-level|freeze|unfreeze|revoke-key — operator token only.
import { Command, InvalidArgumentError } from 'commander';
import type { AgentStatus } from '../../agents';
import { IDENTITY_LEVELS, isIdentityLevel } from '../../keys';
import { agentOrOperatorClient, AS_OPTION, KEY_OPTION, operatorClient, type SignAsOptions } from '../context';
import type { CliIo } from '../io';
import { CliUsageError, printJson } from '../output';

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
}

function checkLevel(level: string): void {
  if (!isIdentityLevel(level)) throw new CliUsageError('invalid_identity_level', `identity level must be one of ${IDENTITY_LEVELS.join(', ')}`);
}

const REASON_OPTION = ['--reason <text>', 'why (kept in the agent history / audit)'] as const;

export function addAgentCommand(program: Command, io: CliIo): void {
  const agent = program.command('agent').description('agent identities: read them (operator or --key), change them (operator)');

  agent
    .command('get')
    .description('show one agent')
    .argument('<agent_id>')
    .option(...KEY_OPTION)
    .option(...AS_OPTION)
    .action(async (agentId: string, opts: SignAsOptions, command: Command) => {
      printJson(io, await (await agentOrOperatorClient(command, io, opts, agentId)).agents.getAgent(agentId));
    });

  agent
    .command('list')
    .description('list agents, newest first (one page: {data, next_cursor})')
    .option('--limit <n>', 'page size 1-200', parseLimit)
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .option('--identity-level <level>', `filter: ${IDENTITY_LEVELS.join(', ')}`)
    .option('--status <status>', 'filter: active | frozen')
    .option(...KEY_OPTION)
    .option(...AS_OPTION)
    .action(async (opts: SignAsOptions & { limit?: number; cursor?: string; identityLevel?: string; status?: string }, command: Command) => {
      if (opts.identityLevel !== undefined && !isIdentityLevel(opts.identityLevel)) {
        throw new CliUsageError('invalid_identity_level', `--identity-level must be one of ${IDENTITY_LEVELS.join(', ')}`);
      }
      if (opts.status !== undefined && opts.status !== 'active' && opts.status !== 'frozen') {
        throw new CliUsageError('invalid_status', '--status must be active or frozen');
      }
      const client = await agentOrOperatorClient(command, io, opts);
      const page = await client.agents.listAgents({
        limit: opts.limit,
        cursor: opts.cursor,
        identityLevel: opts.identityLevel,
        status: opts.status as AgentStatus | undefined,
      });
      printJson(io, page);
    });

  agent
    .command('transitions')
    .description("an agent's identity level history, newest first (an agent may read only its own)")
    .argument('<agent_id>')
    .option('--limit <n>', 'page size 1-200', parseLimit)
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .option(...KEY_OPTION)
    .option(...AS_OPTION)
    .action(async (agentId: string, opts: SignAsOptions & { limit?: number; cursor?: string }, command: Command) => {
      const client = await agentOrOperatorClient(command, io, opts, agentId);
      printJson(io, await client.agents.listIdentityTransitions(agentId, { limit: opts.limit, cursor: opts.cursor }));
    });

  agent
    .command('identity-level')
    .description('change the identity level (operator)')
    .argument('<agent_id>')
    .argument('<level>', IDENTITY_LEVELS.join(' | '))
    .requiredOption(...REASON_OPTION)
    .action(async (agentId: string, level: string, opts: { reason: string }, command: Command) => {
      checkLevel(level);
      const client = operatorClient(command, io, 'agent identity-level');
      printJson(io, await client.agents.changeIdentityLevel(agentId, level as (typeof IDENTITY_LEVELS)[number], opts.reason));
    });

  for (const [name, description] of [
    ['freeze', 'freeze an agent: its mutations and money stop (operator)'],
    ['unfreeze', 'unfreeze an agent (operator)'],
  ] as const) {
    agent
      .command(name)
      .description(description)
      .argument('<agent_id>')
      .requiredOption(...REASON_OPTION)
      .action(async (agentId: string, opts: { reason: string }, command: Command) => {
        const client = operatorClient(command, io, `agent ${name}`);
        printJson(io, await (name === 'freeze' ? client.agents.freezeAgent(agentId, opts.reason) : client.agents.unfreezeAgent(agentId, opts.reason)));
      });
  }

  agent
    .command('revoke-key')
    .description('revoke one of the agent\'s additional public keys (operator; the primary key cannot be revoked)')
    .argument('<agent_id>')
    .argument('<pubkey>', 'base64 public key')
    .requiredOption(...REASON_OPTION)
    .action(async (agentId: string, pubkey: string, opts: { reason: string }, command: Command) => {
      const client = operatorClient(command, io, 'agent revoke-key');
      printJson(io, await client.agents.revokeKey(agentId, pubkey, opts.reason));
    });
}
