// exchange integrity state|set-state|kill-switch|audit — market integrity for operators (the
// operator token: --token / EXCHANGE_OPERATOR_TOKEN). Mutations print the snapshot and the
// idempotency key (stderr) so a retry can reuse it with --idempotency-key.
import { InvalidArgumentError, type Command } from 'commander';
import { idempotencyOf } from '../../idempotency';
import type { IntegrityAuditAction, IntegrityState, KillSwitchName } from '../../integrity';
import { clientFor } from '../context';
import type { CliIo } from '../io';
import { printJson } from '../output';

const STATES: readonly IntegrityState[] = ['normal', 'elevated', 'restricted', 'halted'];
const SWITCHES: readonly KillSwitchName[] = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'];

function oneOf<T extends string>(values: readonly T[], what: string) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`${what} must be one of ${values.join(', ')}`);
    return value as T;
  };
}

function printMutation(io: CliIo, result: unknown): void {
  const info = idempotencyOf(result);
  if (info) io.stderr(`idempotency_key: ${info.key}${info.replayed ? ' (replayed)' : ''}\n`);
  printJson(io, result);
}

const REASON_OPTION = ['--reason <text>', 'why (1–500 characters, kept in the audit log)'] as const;
const IDEMPOTENCY_OPTION = ['--idempotency-key <key>', 'reuse the key of an earlier attempt when retrying (default: a new key)'] as const;

export function addIntegrityCommand(program: Command, io: CliIo): void {
  const integrity = program.command('integrity').description('market integrity: state, kill switches, audit (operator)');

  integrity
    .command('state')
    .description('show the integrity state and the six kill switches')
    .action(async (_opts: unknown, command: Command) => {
      printJson(io, await clientFor(command, io).integrity.get());
    });

  integrity
    .command('set-state')
    .description('move the market state (any state directly: halting is one call)')
    .argument('<state>', STATES.join(' | '), oneOf(STATES, 'state'))
    .requiredOption(...REASON_OPTION)
    .option(...IDEMPOTENCY_OPTION)
    .action(async (state: IntegrityState, opts: { reason: string; idempotencyKey?: string }, command: Command) => {
      printMutation(io, await clientFor(command, io).integrity.setState({ state, reason: opts.reason, idempotencyKey: opts.idempotencyKey }));
    });

  integrity
    .command('kill-switch')
    .description('turn a kill switch on or off')
    .argument('<name>', SWITCHES.join(' | '), oneOf(SWITCHES, 'name'))
    .argument('<on|off>', 'on or off', oneOf(['on', 'off'] as const, 'the second argument'))
    .requiredOption(...REASON_OPTION)
    .option(...IDEMPOTENCY_OPTION)
    .action(async (name: KillSwitchName, onOff: 'on' | 'off', opts: { reason: string; idempotencyKey?: string }, command: Command) => {
      printMutation(
        io,
        await clientFor(command, io).integrity.setKillSwitch({ name, enabled: onOff === 'on', reason: opts.reason, idempotencyKey: opts.idempotencyKey }),
      );
    });

  integrity
    .command('audit')
    .description('print the audit log, newest first (one page)')
    .option('--action <action>', 'state_changed | kill_switch_set | erroneous_clear | buyer_alias_updated | resale_review_decided')
    .option('--limit <n>', '1–200', (v) => Number(v))
    .option('--cursor <cursor>', 'next_cursor of the previous page')
    .action(async (opts: { action?: IntegrityAuditAction; limit?: number; cursor?: string }, command: Command) => {
      printJson(io, await clientFor(command, io).integrity.audit(opts));
    });
}
