import { createLogger } from '@exchange/platform';
import { readGatewayConfig } from './config';
import { buildGateway } from './index';

// Prints the OpenAPI 3.1 document to stdout. Builds the app without listening; the gRPC
// channel is created idle and never used, so nothing is contacted.
async function dump(): Promise<void> {
  const config = readGatewayConfig({
    IDENTITY_GRPC_URL: '127.0.0.1:9',
    WALLET_LEDGER_GRPC_URL: '127.0.0.1:9',
    MARKET_GRPC_URL: '127.0.0.1:9',
    REGISTRY_GRPC_URL: '127.0.0.1:9',
    COMMERCE_GRPC_URL: '127.0.0.1:9',
    WORKFLOWS_GRPC_URL: '127.0.0.1:9',
    TELEMETRY_GRPC_URL: '127.0.0.1:9',
    OPERATOR_TOKEN: 'openapi-dump-placeholder-token',
    LOG_LEVEL: 'silent',
  });
  const app = await buildGateway({ config, logger: createLogger({ name: 'openapi-dump', level: 'silent' }) });
  await app.ready();
  process.stdout.write(JSON.stringify(app.swagger(), null, 2) + '\n');
  await app.close();
}

dump().catch((err: unknown) => {
  process.stderr.write(`openapi-dump failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
