import { ConfigError, createLogger, guardProcess, onShutdown, type Logger } from '@exchange/platform';

export interface ServiceMain<C extends { LOG_LEVEL: string; EXCHANGE_ENV: string }> {
  name: string;
  /** Reads and validates the environment; a ConfigError names the bad variable. */
  readConfig(): C;
  start(config: C, deps: { logger: Logger }): Promise<{ grpcPort: number; stop(): Promise<void> }>;
}

/**
 * A service's `main.ts`: configuration (exit 1 with the variable's name when invalid), logger,
 * process guard, start, then SIGTERM/SIGINT → stop. Exits 1 when start fails.
 */
export async function runService<C extends { LOG_LEVEL: string; EXCHANGE_ENV: string }>(main: ServiceMain<C>): Promise<void> {
  let config: C;
  try {
    config = main.readConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name: main.name, level: config.LOG_LEVEL });
  guardProcess(logger);
  try {
    const service = await main.start(config, { logger });
    logger.info({ grpc_port: service.grpcPort, environment: config.EXCHANGE_ENV }, `${main.name} ready`);
    onShutdown(logger, [{ name: main.name, run: () => service.stop() }]);
  } catch (err) {
    // stderr is synchronous: the reason is printed before the exit, whatever pino still buffers.
    console.error(`${main.name} failed to start`, err);
    process.exit(1);
  }
}
