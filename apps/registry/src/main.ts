import { ConfigError, createLogger, guardProcess, onShutdown } from '@exchange/platform';
import { readRegistryConfig, startRegistry } from './index';

// Process wiring only: configuration, logger, process guard, service, signals.
async function main(): Promise<void> {
  let config;
  try {
    config = readRegistryConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name: 'registry', level: config.LOG_LEVEL });
  guardProcess(logger);
  const registry = await startRegistry(config, { logger });
  logger.info({ grpc_port: registry.grpcPort, environment: config.EXCHANGE_ENV }, 'registry ready');
  onShutdown(logger, [{ name: 'registry', run: () => registry.stop() }]);
}

main().catch((err: unknown) => {
  console.error('registry failed to start', err);
  process.exit(1);
});
