import { createLogger, guardProcess, onShutdown } from '@exchange/platform';
import { readGatewayConfig } from './config';
import { startGateway } from './index';

// Process only: configuration, logger, process guard, listen, graceful shutdown on SIGTERM/SIGINT.
async function main(): Promise<void> {
  const config = readGatewayConfig();
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  guardProcess(logger);
  const gateway = await startGateway(config, { logger });
  onShutdown(logger, [{ name: 'gateway', run: () => gateway.stop() }]);
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
