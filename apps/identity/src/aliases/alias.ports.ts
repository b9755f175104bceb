import type { PartyRole } from './party-alias';

export interface PartyAliasRecord {
  alias: string;
  contractId: string;
  role: PartyRole;
  /** 0 = the first alias of (contract, role); each operator alias update mints the next one. */
  generation: number;
  agentId: string;
  /** The registry object id of the token, null until it was stored. */
  objectId: string | null;
  createdAt: Date;
}

export interface AliasStore {
  findByContractRole(contractId: string, role: PartyRole, generation: number): Promise<PartyAliasRecord | null>;
  findByAlias(alias: string): Promise<PartyAliasRecord | null>;
  /**
   * Inserts unless (contract_id, role, generation) or the alias already exists; returns the row
   * that holds (contract_id, role, generation) afterwards (the caller's, or a concurrent winner's), or null on an alias
   * collision (the caller draws a new one).
   */
  insert(record: PartyAliasRecord): Promise<PartyAliasRecord | null>;
  setObjectId(alias: string, objectId: string): Promise<void>;
}

export interface ExchangeObjectInput {
  type: string;
  payload: Record<string, unknown>;
  visibility: 'public' | 'parties' | 'operator';
  parties: string[];
}

export interface StoredExchangeObject {
  objectId: string;
  payloadJson: string;
  signature: string;
  created: boolean;
}

/** Registry StoreExchangeObject (idempotent: the same object again → created false). */
export interface ExchangeObjectStore {
  store(input: ExchangeObjectInput, trace: { requestId: string | null; traceId: string | null }): Promise<StoredExchangeObject>;
}
