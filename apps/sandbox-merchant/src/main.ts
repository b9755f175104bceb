import { createLogger, guardProcess, onShutdown } from '@exchange/platform';
import { readSandboxMerchantConfig } from './config';
import { startSandboxMerchant } from './index';

// Process only: configuration, logger, process guard, listen, graceful shutdown on SIGTERM/SIGINT.
async function main(): Promise<void> {
  const config = readSandboxMerchantConfig();
  const logger = createLogger({ name: 'sandbox-merchant', level: config.LOG_LEVEL });
  guardProcess(logger);
  const merchant = await startSandboxMerchant(config, { logger });
  logger.info({ url: merchant.url }, 'sandbox merchant listening');
  onShutdown(logger, [{ name: 'sandbox-merchant', run: () => merchant.stop() }]);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox-merchant failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
