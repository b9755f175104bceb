import type pg from 'pg';
import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import { createServiceClient, type Logger } from '@exchange/platform';
import { identityV1, marketV1, walletV1 } from '@exchange/proto';
import type { RegistryConfig } from '../config';
import { AgentDirectory } from '@exchange/identity-client';
import { ContractDirectory, type WalletClient } from '../clients/market';
import type { ArtifactStore } from '../store/artifact-store';
import { createStore, parseStoreUrl } from '../store/store-url';

export interface RegistryContext {
  pool: pg.Pool;
  logger: Logger;
  clock: () => Date;
  /** Wakes the outbox relay after a commit that wrote events. */
  notify: () => void;
  store: ArtifactStore;
  maxArtifactBytes: number;
  /** Exchange signing key (32-byte seed) and its base64 public key. */
  signingKey: Uint8Array;
  exchangePublicKey: string;
  agents: AgentDirectory;
  contracts: ContractDirectory;
  wallet: WalletClient;
  close(): void;
}

export function createRegistryContext(
  config: RegistryConfig,
  deps: { pool: pg.Pool; logger: Logger; clock: () => Date; notify: () => void; store?: ArtifactStore },
): RegistryContext {
  const identity = createServiceClient(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  const market = createServiceClient(marketV1.MarketServiceService, config.MARKET_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const wallet = createServiceClient(walletV1.WalletLedgerServiceService, config.WALLET_LEDGER_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const signingKey = fromBase64(config.EXCHANGE_SIGNING_KEY);
  const store =
    deps.store ??
    createStore(
      parseStoreUrl(config.ARTIFACT_STORE_URL, {
        dir: config.ARTIFACT_STORE_DIR,
        cwd: process.cwd(),
        accessKeyId: config.AWS_ACCESS_KEY_ID,
        secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
      }),
    );
  return {
    pool: deps.pool,
    logger: deps.logger,
    clock: deps.clock,
    notify: deps.notify,
    store,
    maxArtifactBytes: config.ARTIFACT_MAX_BYTES,
    signingKey,
    exchangePublicKey: toBase64(publicKeyFromPrivate(signingKey)),
    agents: new AgentDirectory(identity, config.AGENT_CACHE_TTL_MS, deps.logger),
    contracts: new ContractDirectory(market, config.AGENT_CACHE_TTL_MS, deps.logger),
    wallet,
    close() {
      identity.close();
      market.close();
      wallet.close();
      if ('close' in store && typeof store.close === 'function') (store as { close(): void }).close();
    },
  };
}
