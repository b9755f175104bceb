import type { Logger } from './logger';

// The last line of defence (DESIGN §3: one failing request never stops the process). Request
// paths catch their own errors (unary(), Fastify's error handler); a promise rejection that still
// escapes is a bug to log, not a reason to drop every other client's requests. A synchronous
// uncaught exception leaves the process in an unknown state, so that one ends in a clean shutdown
// (the orchestrator restarts it) after it is logged.

export interface ProcessGuardOptions {
  /** Runs after an uncaught exception is logged (e.g. the onShutdown trigger, which exits 1). */
  onFatal?: (err: unknown) => void;
  /** The process to guard (tests pass an EventEmitter). */
  target?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/** Installs the handlers once per target; returns a function that removes them. */
export function guardProcess(logger: Logger, opts: ProcessGuardOptions = {}): () => void {
  const target = opts.target ?? process;
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (kept serving)');
  };
  const onException = (err: unknown) => {
    logger.fatal({ err }, 'uncaught exception');
    if (opts.onFatal) opts.onFatal(err);
    else exitSoon(logger);
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}

// Give pino's asynchronous destination a moment to write the fatal line before the exit.
function exitSoon(logger: Logger): void {
  logger.flush();
  setTimeout(() => process.exit(1), 100);
}
