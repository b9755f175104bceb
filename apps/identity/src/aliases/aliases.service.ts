import { errors } from '@exchange/platform';
import type { AgentReader } from '../agents/agent.ports';
import type { AliasStore, ExchangeObjectStore, PartyAliasRecord, StoredExchangeObject } from './alias.ports';
import {
  IDENTITY_REVEAL_TYPE,
  PARTY_ALIAS_TOKEN_TYPE,
  aliasTokenPayload,
  assertMayMintAlias,
  assertMayReveal,
  newAlias,
  revealPayload,
  validateMintAlias,
  validateReveal,
  type AliasCaller,
  type MintAliasInput,
  type RevealInput,
} from './party-alias';
import { agentNotFound } from '../agents/identity.errors';

export interface AliasServiceDeps {
  store: AliasStore;
  /** Absent when REGISTRY_GRPC_URL is not configured: minting is then 503 registry_unavailable. */
  registry: ExchangeObjectStore | null;
  agents: AgentReader;
  now?: () => Date;
  newAlias?: () => string;
}

export type AliasCall = AliasCaller & { requestId: string | null; traceId: string | null };

export interface MintedAlias extends StoredExchangeObject {
  alias: string;
}

const MAX_ALIAS_DRAWS = 5;

/**
 * Party aliases and identity reveals. Both are idempotent: the alias row is unique per
 * (contract, role) and the registry dedupes an object by its content id, so a retry after a
 * failure half way (row stored, token not yet) completes the work and a repeat returns created=false.
 */
export class AliasService {
  private readonly now: () => Date;
  private readonly draw: () => string;

  constructor(private readonly deps: AliasServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.draw = deps.newAlias ?? (() => newAlias());
  }

  async mintPartyAlias(input: MintAliasInput, caller: AliasCall): Promise<MintedAlias> {
    const { contractId, role, agentId, generation } = validateMintAlias(input);
    assertMayMintAlias(caller, agentId);
    const registry = this.registry();
    let record = await this.deps.store.findByContractRole(contractId, role, generation);
    for (let i = 0; record === null && i < MAX_ALIAS_DRAWS; i++) {
      record = await this.deps.store.insert({ alias: this.draw(), contractId, role, generation, agentId, objectId: null, createdAt: this.now() });
    }
    if (record === null) throw errors.aborted('alias_collision', 'could not draw an unused alias, retry');
    if (record.agentId !== agentId) {
      throw errors.failedPrecondition('alias_agent_mismatch', `the ${role} alias of contract ${contractId} belongs to another agent`);
    }
    const stored = await registry.store(
      { type: PARTY_ALIAS_TOKEN_TYPE, payload: aliasTokenPayload(record.alias, contractId, role), visibility: 'public', parties: [] },
      caller,
    );
    if (record.objectId !== stored.objectId) await this.deps.store.setObjectId(record.alias, stored.objectId);
    return { ...stored, alias: record.alias };
  }

  async mintIdentityReveal(input: RevealInput, caller: AliasCall): Promise<StoredExchangeObject> {
    const { contractId, alias, revealTo } = validateReveal(input);
    const record: PartyAliasRecord | null = await this.deps.store.findByAlias(alias);
    if (record === null || record.contractId !== contractId) {
      throw errors.notFound('alias', alias);
    }
    assertMayReveal(caller, record.agentId);
    if ((await this.deps.agents.get(revealTo)) === null) throw agentNotFound(revealTo);
    return this.registry().store(
      {
        type: IDENTITY_REVEAL_TYPE,
        payload: revealPayload(alias, record.agentId, contractId, revealTo),
        visibility: 'parties',
        parties: [revealTo],
      },
      caller,
    );
  }

  private registry(): ExchangeObjectStore {
    if (this.deps.registry === null) throw errors.unavailable('registry_unavailable', 'the registry is not configured');
    return this.deps.registry;
  }
}
