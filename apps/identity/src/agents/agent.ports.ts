import type { CursorKey } from '@exchange/platform';
import type { Agent, AgentStatus, IdentityLevel, IdentityTransition } from './agent.model';
import type { AgentChange } from './agent-changes';

/** Who asked, as the event envelope records it. */
export interface Caller {
  actor: string | null;
  traceId: string | null;
}

export interface AgentListQuery {
  identityLevel: IdentityLevel | null;
  status: AgentStatus | null;
  after: CursorKey | null;
  /** Rows to fetch (the caller asks for one more than the page size). */
  take: number;
}

/** Reads: one SQL round trip each (the gateway calls `get` on most requests). */
export interface AgentReader {
  get(agentId: string): Promise<Agent | null>;
  /** The agents among `agentIds` (distinct ids), in no particular order; unknown ids are absent. */
  getMany(agentIds: string[]): Promise<Agent[]>;
  list(query: AgentListQuery): Promise<Agent[]>;
  listTransitions(agentId: string, after: CursorKey | null, take: number): Promise<IdentityTransition[]>;
  isNonceUsed(nonce: string): Promise<boolean>;
  /** The keys among `pubkeys` already bound to an agent (revoked ones included). */
  boundPubkeys(pubkeys: string[]): Promise<string[]>;
  /** The three registration pre-checks at once (one round trip): agent id taken, nonce used, keys bound. */
  registrationConflicts(agentId: string, nonce: string, pubkeys: string[]): Promise<RegistrationConflicts>;
}

export interface RegistrationConflicts {
  agentExists: boolean;
  nonceUsed: boolean;
  boundPubkeys: string[];
}

/**
 * Writes: each one is a single transaction that also enqueues its event in the outbox. `E` is the
 * event as the outbox stores it: the domain only hands it from `AgentEvents` to the writer.
 */
export interface AgentWriter<E = unknown> {
  /** Throws 409 `agent_id_exists` / `pubkey_in_use` / `proof_nonce_used` when a unique constraint says so. */
  create(agent: Agent, proofNonce: string, eventFor: (agent: Agent) => E): Promise<Agent>;
  /**
   * Locks the agent row, lets `plan` decide from the locked state (it may throw a DomainError,
   * which rolls back), stores the change and its event. Throws 404 `agent_not_found`.
   */
  change(
    agentId: string,
    plan: (agent: Agent) => AgentChange,
    eventFor: (after: Agent, change: AgentChange) => E,
  ): Promise<{ agent: Agent; change: AgentChange }>;
}

export interface AgentEvents<E = unknown> {
  registered(agent: Agent, caller: Caller): E;
  changed(agent: Agent, change: AgentChange, caller: Caller): E;
}
