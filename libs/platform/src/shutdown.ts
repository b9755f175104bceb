import pino from 'pino';
import type { Logger } from './logger';

interface AsyncDestination {
  _writing?: boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

// pino's default destination (sonic-boom, async) answers flush(cb) at once even while a write
// is in flight, and its exit hook then writes the queued lines synchronously — ahead of the
// in-flight ones. So wait for 'drain' (nothing in flight, nothing queued) before exiting.
function whenLogDrained(logger: Logger, done: () => void): void {
  const stream = (logger as unknown as Record<symbol, AsyncDestination | undefined>)[pino.symbols.streamSym];
  logger.flush();
  if (stream?._writing === true && typeof stream.once === 'function') stream.once('drain', done);
  else done();
}

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

export const SHUTDOWN_TIMEOUT_MS_DEFAULT = 25_000;

/**
 * On the first SIGTERM/SIGINT runs `steps` in order (stop intake first, close stores last), then
 * exits with the trigger's code (0 for a signal); exits 1 if the steps take longer than `timeoutMs`. A failing step is logged and the
 * rest still run, so connections are not leaked. Returns the trigger, which tests call directly
 * (with `exit` replaced); repeated signals or calls share the one run.
 */
export function onShutdown(
  logger: Logger,
  steps: ShutdownStep[],
  opts: { timeoutMs?: number; exit?: (code: number) => void; signals?: NodeJS.Signals[] } = {},
): (exitCode?: number) => Promise<void> {
  const timeoutMs = opts.timeoutMs ?? SHUTDOWN_TIMEOUT_MS_DEFAULT;
  const exitProcess = opts.exit ?? ((code: number) => process.exit(code));
  // pino writes asynchronously; flush first so the shutdown lines are neither lost nor
  // reordered by process.exit. A stuck destination must not block the exit, hence the cap.
  const exit = (code: number) =>
    new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(cap);
        exitProcess(code);
        resolve();
      };
      const cap = setTimeout(finish, 1_000);
      try {
        whenLogDrained(logger, finish);
      } catch {
        finish();
      }
    });
  let running: Promise<void> | undefined;

  const trigger = (exitCode = 0): Promise<void> => {
    running ??= new Promise<void>((resolve) => {
      let finished = false;
      const timer = setTimeout(() => {
        if (finished) return;
        finished = true;
        logger.error({ timeout_ms: timeoutMs }, 'shutdown timed out');
        void exit(1).then(resolve);
      }, timeoutMs);
      void (async () => {
        logger.info({ steps: steps.map((s) => s.name) }, 'shutting down');
        let failed = false;
        for (const step of steps) {
          if (finished) return;
          try {
            await step.run();
            logger.info({ step: step.name }, 'shutdown step done');
          } catch (err) {
            failed = true;
            logger.error({ step: step.name, err }, 'shutdown step failed');
          }
        }
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        logger.info({ failed }, 'shutdown complete');
        await exit(exitCode);
        resolve();
      })();
    });
    return running;
  };

  for (const signal of opts.signals ?? (['SIGTERM', 'SIGINT'] as NodeJS.Signals[])) {
    process.once(signal, (received) => {
      logger.info({ signal: received }, 'signal received');
      void trigger();
    });
  }
  return trigger;
}
