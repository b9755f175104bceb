import { ConfigError, createLogger, guardProcess, onShutdown } from '@exchange/platform';
import { readIdentityConfig, startIdentity } from './index';

// Process wiring only: configuration, logger, process guard, service, signals.
async function main(): Promise<void> {
  let config;
  try {
    config = readIdentityConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name: 'identity', level: config.LOG_LEVEL });
  guardProcess(logger);
  const identity = await startIdentity(config, { logger });
  logger.info({ grpc_port: identity.grpcPort, environment: config.EXCHANGE_ENV }, 'identity ready');
  onShutdown(logger, [{ name: 'identity', run: () => identity.stop() }]);
}

main().catch((err: unknown) => {
  console.error('identity failed to start', err);
  process.exit(1);
});
