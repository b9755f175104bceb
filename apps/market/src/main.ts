import { ConfigError, createLogger, guardProcess, onShutdown } from '@exchange/platform';
import { readMarketConfig, startMarket } from './index';

// Process wiring only: configuration, logger, process guard, service, signals.
async function main(): Promise<void> {
  let config;
  try {
    config = readMarketConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name: 'market', level: config.LOG_LEVEL });
  guardProcess(logger);
  const market = await startMarket(config, { logger });
  logger.info({ grpc_port: market.grpcPort, environment: config.EXCHANGE_ENV }, 'market ready');
  onShutdown(logger, [{ name: 'market', run: () => market.stop() }]);
}

main().catch((err: unknown) => {
  console.error('market failed to start', err);
  process.exit(1);
});
