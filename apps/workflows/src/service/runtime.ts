import type pg from 'pg';
import type { AgentDirectory } from '@exchange/identity-client';
import type { Logger } from '@exchange/platform';
import type { MarketClient, RegistryClient, WalletClient } from '../clients/clients';
import type { EngineHooks } from '../domain/ports';

/**
 * Everything the workflows slices may use, built once by index.ts. Each slice's factory declares
 * what it uses as a `Pick<WorkflowsRuntime, …>`, so its signature tells what it needs.
 */
export interface WorkflowsRuntime {
  pool: pg.Pool;
  agents: AgentDirectory;
  market: MarketClient;
  wallet: WalletClient;
  registry: RegistryClient;
  /** The exchange ed25519 key: signs the run casefile docket. */
  exchangeSigner: { privateKey: Uint8Array; publicKey: string };
  clock: () => Date;
  logger: Logger;
  /** Wakes the outbox relay after a commit that wrote events. */
  notify: () => void;
  /** Test hooks of the run engine (crash points); unset in production. */
  engineHooks?: EngineHooks;
}
