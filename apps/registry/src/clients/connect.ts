import { createServiceClient, type Logger } from '@exchange/platform';
import { identityV1, marketV1, walletV1 } from '@exchange/proto';
import { AgentDirectory } from '@exchange/identity-client';
import type { RegistryConfig } from '../config';
import type { CasefileSources } from '../casefiles/casefile-sources';
import { GrpcCasefileSources } from './casefile-sources';
import { ContractDirectory } from './market';

/** The registry's outbound gRPC clients: identity (agents), market (contracts), wallet-ledger (receipts). */
export interface RegistryClients {
  agents: AgentDirectory;
  contracts: ContractDirectory;
  sources: CasefileSources;
  close(): void;
}

export function connectClients(config: RegistryConfig, logger: Logger): RegistryClients {
  const identity = createServiceClient(identityV1.IdentityServiceService, config.IDENTITY_GRPC_URL, { defaultDeadlineMs: 2_000 });
  const market = createServiceClient(marketV1.MarketServiceService, config.MARKET_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const wallet = createServiceClient(walletV1.WalletLedgerServiceService, config.WALLET_LEDGER_GRPC_URL, { defaultDeadlineMs: 5_000 });
  const contracts = new ContractDirectory(market, config.AGENT_CACHE_TTL_MS, logger);
  return {
    agents: new AgentDirectory(identity, config.AGENT_CACHE_TTL_MS, logger),
    contracts,
    sources: new GrpcCasefileSources(contracts, wallet, logger),
    close() {
      identity.close();
      market.close();
      wallet.close();
    },
  };
}
