// Party aliases (`client.aliases`) and identity reveals (`client.identityReveals`): registry
// objects the exchange mints for a contract's private parties.
import type { IdentityRevealPayload, PartyAliasToken, PartyRole, RegistryObject } from './registry-types';
import { pathSegment, type Transport } from './transport';
import type { api } from './wire';

export interface MintAliasInput {
  contractId: string;
  role: PartyRole;
}

export class AliasesApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/party_alias_tokens/mint: the role's agent or the operator; 201, or 200 when minted before. */
  mint(input: MintAliasInput): Promise<PartyAliasToken> {
    return this.transport.request<PartyAliasToken>({
      method: 'POST',
      path: '/v1/party_alias_tokens/mint',
      body: { contract_id: input.contractId, role: input.role } satisfies api.MintPartyAliasTokenRequest,
    });
  }

  /** GET /v1/party_alias_tokens/{object_id}: the token object (readable by any authenticated caller; none without credentials). */
  get(objectId: string): Promise<RegistryObject<Record<string, unknown>>> {
    return this.transport.request<RegistryObject<Record<string, unknown>>>({ method: 'GET', path: `/v1/party_alias_tokens/${pathSegment(objectId)}` });
  }
}

export interface MintIdentityRevealInput {
  contractId: string;
  alias: string;
  /** Agent id the identity is revealed to. */
  revealTo: string;
}

export class IdentityRevealsApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/identity_reveals/mint: only the aliased agent or the operator; 201, or 200 when minted before. */
  mint(input: MintIdentityRevealInput): Promise<RegistryObject<IdentityRevealPayload>> {
    return this.transport.request<RegistryObject<IdentityRevealPayload>>({
      method: 'POST',
      path: '/v1/identity_reveals/mint',
      body: { contract_id: input.contractId, alias: input.alias, reveal_to: input.revealTo } satisfies api.MintIdentityRevealRequest,
    });
  }

  /** GET /v1/identity_reveals/{object_id}: only the operator and `reveal_to`. */
  get(objectId: string): Promise<RegistryObject<IdentityRevealPayload>> {
    return this.transport.request<RegistryObject<IdentityRevealPayload>>({ method: 'GET', path: `/v1/identity_reveals/${pathSegment(objectId)}` });
  }
}
