import { readCommerceConfig, startCommerce } from '@exchange/commerce';
import { readWorkflowsConfig, startWorkflows } from '@exchange/workflows';
import { findStablePort } from '@exchange/db';
import { createEventBus } from '@exchange/events';
import { hoursToMs } from '@exchange/service-host';
import { startGateway, readGatewayConfig } from '@exchange/gateway';
import { startIdentity, readIdentityConfig } from '@exchange/identity';
import { readMarketConfig, startMarket } from '@exchange/market';
import { readTelemetryConfig, startTelemetry } from '@exchange/telemetry';
import { createLogger, useInProcessCalls } from '@exchange/platform';
import { readRegistryConfig, startRegistry } from '@exchange/registry';
import { readWalletLedgerConfig, startWalletLedger } from '@exchange/wallet-ledger';
import { resolve } from 'node:path';
import { artifactStoreEnv } from './artifact-store';
import { readExchangeConfig } from './config';
import { openDatabases } from './databases';
import { resolveOperatorToken } from './operator-token';
import { localUrl, runsSandboxMerchant, startLocalSandboxMerchant, type LocalSandboxMerchant } from './sandbox-merchant';
import { loadOrCreateSigningKey } from './signing-key';

export interface RunningExchange {
  url: string;
  operatorToken: string;
  tokenGenerated: boolean;
  environment: string;
  database: 'embedded' | 'external';
  events: 'nats' | 'in-process';
  /** gRPC `host:port` of each service by name (tests call services directly, e.g. wallet Settle). */
  grpcUrls: Record<string, string>;
  /** Sandbox only: the built-in UCP business (`url`) and the MERCHANT_DIRECTORY that names it. */
  sandboxMerchant?: Omit<LocalSandboxMerchant, 'stop'>;
  stop(): Promise<void>;
}

// The whole exchange in one process: every service on an ephemeral loopback gRPC port plus the
// gateway. Services talk events exactly as in distributed mode; their unary gRPC calls to each
// other go to the handler directly (EXCHANGE_IN_PROCESS_CALLS, on by default); the gRPC ports
// still serve clients in other processes and streaming calls.
export async function startExchange(env: Record<string, string | undefined> = process.env): Promise<RunningExchange> {
  const config = readExchangeConfig(env);
  const logger = createLogger({ name: 'exchange', level: config.LOG_LEVEL });
  const dataDir = resolve(config.EXCHANGE_DATA_DIR);
  const signingKey = await loadOrCreateSigningKey(dataDir, config.EXCHANGE_SIGNING_KEY);
  const { token: operatorToken, generated: tokenGenerated } = resolveOperatorToken(config.OPERATOR_TOKEN);

  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) {
      try {
        await s();
      } catch (err) {
        logger.error({ err }, 'error while stopping');
      }
    }
  };

  try {
    // Released when this exchange stops, after its services (another exchange in this process,
    // as in tests, may keep them on).
    if (config.EXCHANGE_IN_PROCESS_CALLS) {
      const release = useInProcessCalls();
      stops.push(async () => release());
    }
    const databases = await openDatabases({
      databaseUrl: config.DATABASE_URL,
      prefix: config.EXCHANGE_DB_PREFIX,
      dataDir,
      embeddedPort: config.EMBEDDED_PG_PORT,
      logger,
    });
    stops.push(() => databases.stop());

    const bus = await createEventBus({ natsUrl: config.NATS_URL, logger, maxAgeMs: hoursToMs(config.EVENTS_RETENTION_HOURS) });
    stops.push(() => bus.close());

    // Each service reads its own settings from the same environment (e.g. RATE_LIMIT_* for the
    // gateway); the launcher only decides where things run and how they find each other.
    const common = { ...env, EXCHANGE_ENV: config.EXCHANGE_ENV, LOG_LEVEL: config.LOG_LEVEL, NATS_URL: config.NATS_URL };
    // Identity and registry call each other (registry checks signatures; identity stores alias
    // tokens through registry, only when minting), so the registry's port is chosen up front.
    const registryPort = await findStablePort();
    const registryUrl = `127.0.0.1:${registryPort}`;
    const identity = await startIdentity(
      readIdentityConfig({
        ...common,
        GRPC_PORT: '0',
        GRPC_HOST: '127.0.0.1',
        DATABASE_URL: await databases.databaseFor('identity'),
        REGISTRY_GRPC_URL: registryUrl,
      }),
      { logger: logger.child({ app: 'identity' }), bus },
    );
    stops.push(() => identity.stop());
    const identityUrl = `127.0.0.1:${identity.grpcPort}`;

    // Signs settlement receipts with the exchange key the gateway publishes on /health. It stores
    // meter events, epoch tables and period receipts in the registry and reads proxy calls' mandate
    // budgets in commerce; both start later, so commerce's port too is chosen up front (the wallet's
    // clients connect lazily, on first use).
    const commercePort = await findStablePort();
    const commerceUrl = `127.0.0.1:${commercePort}`;
    const walletLedger = await startWalletLedger(
      readWalletLedgerConfig({
        ...common,
        GRPC_PORT: '0',
        GRPC_HOST: '127.0.0.1',
        DATABASE_URL: await databases.databaseFor('wallet-ledger'),
        IDENTITY_GRPC_URL: identityUrl,
        REGISTRY_GRPC_URL: registryUrl,
        COMMERCE_GRPC_URL: commerceUrl,
        EXCHANGE_SIGNING_KEY: signingKey,
      }),
      { logger: logger.child({ app: 'wallet-ledger' }), bus },
    );
    stops.push(() => walletLedger.stop());
    const walletLedgerUrl = `127.0.0.1:${walletLedger.grpcPort}`;

    // The event store: it follows every event (exchange.>) and calls no one. Started before market,
    // which asks it for matching signals when recommending.
    const telemetry = await startTelemetry(
      readTelemetryConfig({
        ...common,
        GRPC_PORT: '0',
        GRPC_HOST: '127.0.0.1',
        DATABASE_URL: await databases.databaseFor('telemetry'),
      }),
      { logger: logger.child({ app: 'telemetry' }), bus },
    );
    stops.push(() => telemetry.stop());
    const telemetryUrl = `127.0.0.1:${telemetry.grpcPort}`;

    // Contracts, offers, escrow and disputes: parties checked in identity, money moved by wallet-ledger.
    const market = await startMarket(
      readMarketConfig({
        ...common,
        GRPC_PORT: '0',
        GRPC_HOST: '127.0.0.1',
        DATABASE_URL: await databases.databaseFor('market'),
        IDENTITY_GRPC_URL: identityUrl,
        WALLET_LEDGER_GRPC_URL: walletLedgerUrl,
        TELEMETRY_GRPC_URL: telemetryUrl,
      }),
      { logger: logger.child({ app: 'market' }), bus },
    );
    stops.push(() => market.stop());
    const marketUrl = `127.0.0.1:${market.grpcPort}`;

    // Signed objects, artifacts (bytes under <data dir>/artifacts unless ARTIFACT_STORE_URL/DIR
    // say otherwise), attestations and casefiles signed with the exchange key.
    const registry = await startRegistry(
      readRegistryConfig({
        ...common,
        ...artifactStoreEnv(env, dataDir),
        GRPC_PORT: String(registryPort),
        GRPC_HOST: '127.0.0.1',
        DATABASE_URL: await databases.databaseFor('registry'),
        IDENTITY_GRPC_URL: identityUrl,
        MARKET_GRPC_URL: marketUrl,
        WALLET_LEDGER_GRPC_URL: walletLedgerUrl,
        EXCHANGE_SIGNING_KEY: signingKey,
      }),
      { logger: logger.child({ app: 'registry' }), bus },
    );
    stops.push(() => registry.stop());

    // Sandbox only: the UCP business commerce buys from (MERCHANT_DIRECTORY = sandboxMerchant.directory).
    // It posts order webhooks to the gateway, which starts last, so the gateway's port is fixed first.
    // Commerce too needs the gateway's URL (its UCP profile and webhook URLs).
    const gatewayPort = config.PORT === 0 ? await findStablePort() : config.PORT;
    const gatewayUrl = localUrl(config.HOST, gatewayPort);
    let sandboxMerchant: LocalSandboxMerchant | undefined;
    if (runsSandboxMerchant(config.EXCHANGE_ENV)) {
      const merchant = await startLocalSandboxMerchant({
        env,
        gatewayUrl,
        logLevel: config.LOG_LEVEL,
        logger: logger.child({ app: 'sandbox-merchant' }),
      });
      stops.push(() => merchant.stop());
      sandboxMerchant = merchant;
    }

    // Delegated checkout (UCP platform): buyers in identity, purchase holds in wallet-ledger, a
    // checkout's origin checked in market and workflows. Workflows starts after commerce, so its
    // port is chosen up front (commerce's client connects lazily, on the first origin check).
    const workflowsPort = await findStablePort();
    const workflowsUrl = `127.0.0.1:${workflowsPort}`;
    const commerce = await startCommerce(
      readCommerceConfig({
        ...common,
        GRPC_PORT: String(commercePort),
        GRPC_HOST: '127.0.0.1',
        DATABASE_URL: await databases.databaseFor('commerce'),
        IDENTITY_GRPC_URL: identityUrl,
        WALLET_LEDGER_GRPC_URL: walletLedgerUrl,
        MARKET_GRPC_URL: marketUrl,
        WORKFLOWS_GRPC_URL: workflowsUrl,
        EXCHANGE_SIGNING_KEY: signingKey,
        EXCHANGE_PUBLIC_URL: env.EXCHANGE_PUBLIC_URL ?? gatewayUrl,
        ...(sandboxMerchant ? { MERCHANT_DIRECTORY: sandboxMerchant.directory } : {}),
      }),
      { logger: logger.child({ app: 'commerce' }), bus },
    );
    stops.push(() => commerce.stop());

    // Multi-stage runs: shard contracts in market (followed through its events), budgets checked
    // in wallet-ledger, run casefiles built from the registry's contract dockets.
    const workflows = await startWorkflows(
      readWorkflowsConfig({
        ...common,
        GRPC_PORT: String(workflowsPort),
        GRPC_HOST: '127.0.0.1',
        DATABASE_URL: await databases.databaseFor('workflows'),
        IDENTITY_GRPC_URL: identityUrl,
        MARKET_GRPC_URL: marketUrl,
        WALLET_LEDGER_GRPC_URL: walletLedgerUrl,
        REGISTRY_GRPC_URL: registryUrl,
        EXCHANGE_SIGNING_KEY: signingKey,
      }),
      { logger: logger.child({ app: 'workflows' }), bus },
    );
    stops.push(() => workflows.stop());

    const gateway = await startGateway(
      readGatewayConfig({
        ...common,
        PORT: String(gatewayPort),
        HOST: config.HOST,
        IDENTITY_GRPC_URL: identityUrl,
        WALLET_LEDGER_GRPC_URL: walletLedgerUrl,
        MARKET_GRPC_URL: marketUrl,
        REGISTRY_GRPC_URL: registryUrl,
        COMMERCE_GRPC_URL: commerceUrl,
        WORKFLOWS_GRPC_URL: workflowsUrl,
        TELEMETRY_GRPC_URL: telemetryUrl,
        OPERATOR_TOKEN: operatorToken,
        EXCHANGE_SIGNING_KEY: signingKey,
        REDIS_URL: config.REDIS_URL,
      }),
      // The shared bus: identity's agent events refresh the gateway's agent cache at once.
      { logger: logger.child({ app: 'gateway' }), events: bus },
    );
    stops.push(() => gateway.stop());

    return {
      url: gateway.url,
      operatorToken,
      tokenGenerated,
      environment: config.EXCHANGE_ENV,
      database: databases.kind,
      events: bus.kind,
      grpcUrls: { identity: identityUrl, 'wallet-ledger': walletLedgerUrl, market: marketUrl, registry: registryUrl, commerce: commerceUrl, workflows: workflowsUrl, telemetry: telemetryUrl },
      sandboxMerchant: sandboxMerchant && { url: sandboxMerchant.url, profileUrl: sandboxMerchant.profileUrl, directory: sandboxMerchant.directory, webhookUrl: sandboxMerchant.webhookUrl },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
