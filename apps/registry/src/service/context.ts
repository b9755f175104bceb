import type pg from 'pg';
import { fromBase64, publicKeyFromPrivate, toBase64 } from '@exchange/crypto';
import type { Logger } from '@exchange/platform';
import type { AgentDirectory } from '@exchange/identity-client';
import type { RegistryConfig } from '../config';
import { connectClients } from '../clients/connect';
import type { ContractDirectory } from '../clients/market';
import type { CasefileSources } from '../casefiles/casefile-sources';
import type { ArtifactStore } from '../store/artifact-store';
import { createStore, parseStoreUrl } from '../store/store-url';

/**
 * What start-up (index.ts) builds once. No service takes all of it: each declares the fields it
 * uses as a `Pick<RegistryContext, …>` (ObjectsDeps, ArtifactsDeps, …), so its signature tells
 * what the area needs; RegistryService hands this one object to each of them.
 */
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
  /** Market and wallet-ledger records for casefiles. */
  sources: CasefileSources;
  close(): void;
}

export function createRegistryContext(
  config: RegistryConfig,
  deps: { pool: pg.Pool; logger: Logger; clock: () => Date; notify: () => void; store?: ArtifactStore },
): RegistryContext {
  const clients = connectClients(config, deps.logger);
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
    agents: clients.agents,
    contracts: clients.contracts,
    sources: clients.sources,
    close() {
      clients.close();
      if ('close' in store && typeof store.close === 'function') (store as { close(): void }).close();
    },
  };
}
