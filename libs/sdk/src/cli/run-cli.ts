// `exchange` CLI as a function: argv in, exit code out, output through `io` (no process.exit), so
// tests and other tools can run it in-process.
import { Command, CommanderError } from 'commander';
import { addAgentCommand } from './commands/agent';
import { addCasefileCommand } from './commands/casefile';
import { addIntegrityCommand } from './commands/integrity';
import { addKeygenCommand } from './commands/keygen';
import { addRegisterCommand } from './commands/register';
import { addWalletCommand } from './commands/wallet';
import { DEFAULT_BASE_URL } from './context';
import { processIo, type CliIo } from './io';
import { CliExit, CliUsageError, printError } from './output';

export type { CliIo } from './io';

export function buildProgram(io: CliIo): Command {
  const program = new Command('exchange')
    .description('Agent Exchange command line client')
    .option('--base-url <url>', `exchange base URL (env EXCHANGE_URL, default ${DEFAULT_BASE_URL})`)
    .option('--token <token>', 'operator bearer token (env EXCHANGE_OPERATOR_TOKEN)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError();
  addKeygenCommand(program, io);
  addRegisterCommand(program, io);
  addAgentCommand(program, io);
  addWalletCommand(program, io);
  addCasefileCommand(program, io);
  addIntegrityCommand(program, io);
  // Subcommands inherit exitOverride/output only when set on them; walk the tree once.
  const configure = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });
    cmd.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  return program;
}

/** Runs `exchange <argv...>` (argv without node and script); resolves to the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    // Commander already printed its own message (usage error, --help, --version). `casefile`
    // documents exit 2 for usage errors (0 valid, 1 invalid).
    if (err instanceof CommanderError) return err.exitCode !== 0 && argv.includes('casefile') ? 2 : err.exitCode;
    if (err instanceof CliExit) return err.exitCode;
    printError(io, err);
    return err instanceof CliUsageError ? err.exitCode : 1;
  }
}
