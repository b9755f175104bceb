import { ConfigError, createLogger, guardProcess, onShutdown } from '@exchange/platform';
import { readWalletLedgerConfig, startWalletLedger } from './index';

// Process wiring only: configuration, logger, process guard, service, signals.
async function main(): Promise<void> {
  let config;
  try {
    config = readWalletLedgerConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name: 'wallet-ledger', level: config.LOG_LEVEL });
  guardProcess(logger);
  const wallet = await startWalletLedger(config, { logger });
  logger.info({ grpc_port: wallet.grpcPort, environment: config.EXCHANGE_ENV }, 'wallet-ledger ready');
  onShutdown(logger, [{ name: 'wallet-ledger', run: () => wallet.stop() }]);
}

main().catch((err: unknown) => {
  console.error('wallet-ledger failed to start', err);
  process.exit(1);
});
