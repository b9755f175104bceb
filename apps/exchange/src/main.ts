import { createLogger, guardProcess, onShutdown } from '@exchange/platform';
import { startBanner } from './banner';
import { startExchange } from './exchange';

// `npm start`: the whole exchange in one process on embedded defaults.
async function main() {
  const logger = createLogger({ name: 'exchange', level: process.env.LOG_LEVEL ?? 'info' });
  guardProcess(logger);
  const exchange = await startExchange();
  onShutdown(logger, [{ name: 'exchange', run: () => exchange.stop() }]);
  process.stdout.write(
    startBanner({
      url: exchange.url,
      environment: exchange.environment,
      database: exchange.database === 'embedded' ? 'embedded PostgreSQL' : 'PostgreSQL at DATABASE_URL',
      events: exchange.events === 'nats' ? 'NATS JetStream' : 'in-process events',
      operatorToken: exchange.operatorToken,
      tokenGenerated: exchange.tokenGenerated,
      sandboxMerchantUrl: exchange.sandboxMerchant?.url,
    }),
  );
}

main().catch((err) => {
  // Configuration errors name the bad variable; print them plainly.
  process.stderr.write(`exchange failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
