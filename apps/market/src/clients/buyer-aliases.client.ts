import { errors, type Logger, type PromiseClient } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';

export type IdentityClient = PromiseClient<typeof identityV1.IdentityServiceService>;

/** The buyer's party alias of a contract (identity MintPartyAlias: idempotent per contract and role). */
export interface BuyerAliases {
  /** The alias, or null when identity (or the registry behind it) could not mint it now. */
  mint(contractId: string, buyerId: string, traceId: string | null): Promise<string | null>;
  /**
   * A fresh alias of generation N > 0 (an operator alias update). Throws 503 identity_unavailable
   * when identity could not mint it: the update then changes nothing.
   */
  mintGeneration(contractId: string, buyerId: string, generation: number, traceId: string | null): Promise<string>;
}

/**
 * Calls identity as a service (no actor: the market has already decided the buyer holds the role).
 * A failure is logged and answered null; the caller leaves buyer_alias null and it is retried on
 * the next read of the contract and by the periodic recovery worker.
 */
export class IdentityBuyerAliases implements BuyerAliases {
  constructor(
    private readonly identity: IdentityClient,
    private readonly logger: Logger,
  ) {}

  async mint(contractId: string, buyerId: string, traceId: string | null): Promise<string | null> {
    try {
      const res = await this.identity.mintPartyAlias(
        { contractId, role: identityV1.PartyRole.PARTY_ROLE_BUYER, agentId: buyerId },
        { traceId: traceId ?? undefined },
      );
      return res.alias;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, contract_id: contractId }, 'buyer alias not minted yet; retried later');
      return null;
    }
  }

  async mintGeneration(contractId: string, buyerId: string, generation: number, traceId: string | null): Promise<string> {
    try {
      const res = await this.identity.mintPartyAlias(
        { contractId, role: identityV1.PartyRole.PARTY_ROLE_BUYER, agentId: buyerId, generation },
        { traceId: traceId ?? undefined },
      );
      return res.alias;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, contract_id: contractId, generation }, 'buyer alias generation not minted');
      throw errors.unavailable('identity_unavailable', 'identity could not mint the new buyer alias; nothing was changed, retry');
    }
  }
}
