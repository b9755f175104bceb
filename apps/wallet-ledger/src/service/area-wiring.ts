import type pg from 'pg';
import type { Logger } from '@exchange/platform';
import type { CommerceClient } from '../clients/commerce.client';
import type { GroupCommitOptions } from '../data/group-commit';
import type { AgentDirectory } from '../domain/ledger.ports';
import type { SignedObjectStore } from '../domain/metering.ports';
import type { ExchangeSigner } from '../settlement/settlement.service';

/** What src/grpc/server.ts builds the areas from; an area's factory takes the parts it uses. */
export interface WalletAreasDeps {
  pool: pg.Pool;
  logger: Logger;
  /** Wakes the outbox relay after a commit that wrote events. */
  afterCommit: () => void;
  agents: AgentDirectory;
  clock: () => Date;
  environment: 'sandbox' | 'mainnet';
  signer: ExchangeSigner;
  /** MAINNET_INSTITUTIONAL daily withdrawal limit, micro-units. */
  institutionalLimit: bigint;
  /** The registry's signed objects (meter events, epoch tables, period receipts). */
  objects: SignedObjectStore;
  /** Commerce (mandate budgets of proxy calls); absent when COMMERCE_GRPC_URL is not set. */
  commerce: CommerceClient | undefined;
  /** Group commit of balance mutations; absent = one transaction per mutation. */
  groupCommit?: GroupCommitOptions;
}
