import { randomBytes } from 'node:crypto';
import { errors } from '@exchange/platform';

// Party aliases and identity reveals (DESIGN §4 Identity): pure rules, no I/O.

export type PartyRole = 'buyer' | 'seller';

export const ALIAS_PREFIX = 'anon:';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const ALIAS_RE = /^anon:[a-z2-7]{12}$/;

export const PARTY_ALIAS_TOKEN_TYPE = 'party_alias_token';
export const IDENTITY_REVEAL_TYPE = 'identity_reveal';

/** "anon:" + 12 random base32 (lowercase a-z2-7) characters: 60 random bits, unbiased (256 % 32 = 0). */
export function newAlias(random: (n: number) => Uint8Array = (n) => randomBytes(n)): string {
  const bytes = random(12);
  let out = ALIAS_PREFIX;
  for (let i = 0; i < 12; i++) out += BASE32[(bytes[i] ?? 0) & 31];
  return out;
}

export function isAlias(value: string): boolean {
  return ALIAS_RE.test(value);
}

export interface MintAliasInput {
  contractId: string;
  role: PartyRole | null;
  agentId: string;
  /** 0 (or absent) = the first alias; N > 0 = a fresh alias after an operator alias update. */
  generation?: number;
}

/** The highest generation accepted (a guard against a runaway caller, far above any real use). */
export const MAX_ALIAS_GENERATION = 1_000_000;

export interface RevealInput {
  contractId: string;
  alias: string;
  revealTo: string;
}

function required(field: string, value: string): void {
  if (value.trim() === '') throw errors.invalidArgument('validation_failed', `${field} is required`, { field });
}

export function validateMintAlias(input: MintAliasInput): { contractId: string; role: PartyRole; agentId: string; generation: number } {
  required('contract_id', input.contractId);
  required('agent_id', input.agentId);
  if (input.role === null) throw errors.invalidArgument('validation_failed', 'role must be buyer or seller', { field: 'role' });
  const generation = input.generation ?? 0;
  if (!Number.isInteger(generation) || generation < 0 || generation > MAX_ALIAS_GENERATION) {
    throw errors.invalidArgument('validation_failed', `generation must be 0-${MAX_ALIAS_GENERATION}`, { field: 'generation' });
  }
  return { contractId: input.contractId, role: input.role, agentId: input.agentId, generation };
}

export function validateReveal(input: RevealInput): RevealInput {
  required('contract_id', input.contractId);
  required('reveal_to', input.revealTo);
  if (!isAlias(input.alias)) {
    throw errors.invalidArgument('validation_failed', 'alias must be anon: followed by 12 base32 characters', { field: 'alias' });
  }
  return input;
}

/** Who calls, from gRPC metadata (CallContext). */
export interface AliasCaller {
  /** "operator:<name>" | "agent:<id>" | null */
  actor: string | null;
  /** The acting agent (X-Agent-Id or the signing agent). */
  agentId: string | null;
}

/**
 * The agent a request acts for (DESIGN §3): the acting agent when there is one, else the signing
 * agent of the actor; null for an operator without an acting agent (or an internal service call).
 */
export function actingAgentOf(caller: AliasCaller): string | null {
  if (caller.agentId !== null) return caller.agentId;
  if (caller.actor !== null && caller.actor.startsWith('agent:')) return caller.actor.slice('agent:'.length);
  return null;
}

export function isOperatorCaller(caller: AliasCaller): boolean {
  return caller.agentId === null && caller.actor !== null && caller.actor.startsWith('operator:');
}

/**
 * MintPartyAlias: the caller has resolved the role's agent. An agent caller may only mint its own
 * alias (403 not_contract_party); the operator and internal services (no actor: the market) may
 * mint for anyone.
 */
export function assertMayMintAlias(caller: AliasCaller, agentId: string): void {
  const acting = actingAgentOf(caller);
  if (acting !== null && acting !== agentId) {
    throw errors.permissionDenied('not_contract_party', `agent ${acting} does not hold this role in the contract`);
  }
}

/** MintIdentityReveal: only the aliased agent itself or the operator (403 not_alias_owner). */
export function assertMayReveal(caller: AliasCaller, aliasAgentId: string): void {
  if (isOperatorCaller(caller)) return;
  const acting = actingAgentOf(caller);
  if (acting === aliasAgentId) return;
  throw errors.permissionDenied('not_alias_owner', 'only the aliased agent or the operator may reveal an alias');
}

export function aliasTokenPayload(alias: string, contractId: string, role: PartyRole) {
  return { alias, contract_id: contractId, role };
}

export function revealPayload(alias: string, agentId: string, contractId: string, revealTo: string) {
  return { alias, agent_id: agentId, contract_id: contractId, reveal_to: revealTo };
}
