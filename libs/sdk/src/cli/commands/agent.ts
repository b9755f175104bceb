// exchange agent get <agent_id> | exchange agent list [--limit n] [--cursor c] [--identity-level L] [--status s]
import { Command, InvalidArgumentError } from 'commander';
import type { AgentStatus } from '../../agents';
import { IDENTITY_LEVELS, isIdentityLevel } from '../../keys';
import { clientFor } from '../context';
import type { CliIo } from '../io';
import { CliUsageError, printJson } from '../output';

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
}

export function addAgentCommand(program: Command, io: CliIo): void {
  const agent = program.command('agent').description('read agent identities');

  agent
    .command('get')
    .description('show one agent')
    .argument('<agent_id>')
    .action(async (agentId: string, _opts: unknown, command: Command) => {
      printJson(io, await clientFor(command, io).agents.getAgent(agentId));
    });

  agent
    .command('list')
    .description('list agents, newest first (one page: {data, next_cursor})')
    .option('--limit <n>', 'page size 1-200', parseLimit)
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .option('--identity-level <level>', `filter: ${IDENTITY_LEVELS.join(', ')}`)
    .option('--status <status>', 'filter: active | frozen')
    .action(async (opts: { limit?: number; cursor?: string; identityLevel?: string; status?: string }, command: Command) => {
      if (opts.identityLevel !== undefined && !isIdentityLevel(opts.identityLevel)) {
        throw new CliUsageError('invalid_identity_level', `--identity-level must be one of ${IDENTITY_LEVELS.join(', ')}`);
      }
      if (opts.status !== undefined && opts.status !== 'active' && opts.status !== 'frozen') {
        throw new CliUsageError('invalid_status', '--status must be active or frozen');
      }
      const page = await clientFor(command, io).agents.listAgents({
        limit: opts.limit,
        cursor: opts.cursor,
        identityLevel: opts.identityLevel,
        status: opts.status as AgentStatus | undefined,
      });
      printJson(io, page);
    });
}
