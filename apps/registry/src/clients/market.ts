import { status } from '@grpc/grpc-js';
import { errorInfoFromGrpc, errors, isDomainError, type Logger, type PromiseClient } from '@exchange/platform';
import { marketV1, walletV1 } from '@exchange/proto';

export type MarketClient = PromiseClient<typeof marketV1.MarketServiceService>;
export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;

export interface ContractParties {
  contractId: string;
  buyerId: string;
  /** The awarded seller, when awarded. */
  sellerId: string | null;
}

const marketUnavailable = () => errors.unavailable('market_unavailable', 'market service unavailable');

/** Contract parties from market (GetContract); NOT_FOUND → 404 contract_not_found. */
export class ContractDirectory {
  private readonly cache = new Map<string, { expires: number; parties: Promise<ContractParties> }>();

  constructor(
    readonly client: MarketClient,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  parties(contractId: string): Promise<ContractParties> {
    const now = Date.now();
    const hit = this.cache.get(contractId);
    if (hit && hit.expires > now) return hit.parties;
    const parties = this.fetch(contractId);
    if (this.ttlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(contractId, { expires: now + this.ttlMs, parties });
      parties.catch(() => this.cache.delete(contractId));
    }
    return parties;
  }

  async contract(contractId: string): Promise<marketV1.Contract> {
    try {
      const { contract } = await this.client.getContract({ contractId });
      if (!contract) throw errors.notFound('contract', contractId);
      return contract;
    } catch (err) {
      throw this.translate(err, contractId);
    }
  }

  private async fetch(contractId: string): Promise<ContractParties> {
    const c = await this.contract(contractId);
    return { contractId: c.contractId, buyerId: c.buyerId, sellerId: c.sellerId ?? null };
  }

  translate(err: unknown, contractId: string): Error {
    if (isDomainError(err)) return err;
    const info = errorInfoFromGrpc(err);
    if (info.grpcCode === status.NOT_FOUND || info.grpcCode === status.INVALID_ARGUMENT) return errors.notFound('contract', contractId);
    this.logger.warn({ err: info.message, code: info.code }, 'market lookup failed');
    return marketUnavailable();
  }
}
