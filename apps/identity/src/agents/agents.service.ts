import { decodeCursor, newId, resolveLimit, toPage, type CursorKey } from '@exchange/platform';
import { verifyWithAnyKeyAsync } from '@exchange/crypto';
import type { Agent, AgentStatus, ExchangeEnvironment, IdentityLevel, IdentityTransition, Page } from './agent.model';
import { planFreeze, planKeyRevocation, planLevelChange, planUnfreeze } from './agent-changes';
import type { AgentEvents, AgentReader, AgentWriter, Caller } from './agent.ports';
import { agentIdExists, agentNotFound, proofNonceUsed, pubkeyInUse } from './identity.errors';
import { assertRegistrationProof, validateRegistration, type RegistrationInput } from './registration';
import { AGENT_BATCH_MAX, assertReason, canNameAgent, normalizePublicKey, validationFailed } from './validation';

/** `E`: the outbox event, built by `events` and stored by `writer` (opaque to the domain). */
export interface AgentServiceDeps<E = unknown> {
  reader: AgentReader;
  writer: AgentWriter<E>;
  events: AgentEvents<E>;
  environment: ExchangeEnvironment;
  now?: () => Date;
}

export interface PageQuery {
  limit: number | null;
  cursor: string | null;
}

export interface SignatureCheck {
  valid: boolean;
  /** The key that verified (empty when none did). */
  pubkey: string;
  agent: Agent | null;
}

const agentKey = (agent: Agent): CursorKey => ({ createdAt: agent.createdAt, id: agent.agentId });
const transitionKey = (t: IdentityTransition): CursorKey => ({ createdAt: t.createdAt, id: t.transitionId });

/** Identity's use cases: validation and rules from the domain, I/O through the ports. */
export class AgentService<E = unknown> {
  private readonly now: () => Date;

  constructor(private readonly deps: AgentServiceDeps<E>) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Order of checks: shape and level, agent_id unused, nonce unused, proof. A replayed
   * registration therefore reports `agent_id_exists` (spec §7) rather than the reused nonce.
   * The unique constraints decide again inside the transaction, so concurrent twins lose cleanly.
   */
  async register(input: RegistrationInput, caller: Caller): Promise<Agent> {
    const registration = validateRegistration(input, this.deps.environment);
    const { reader, writer, events } = this.deps;
    const conflicts = await reader.registrationConflicts(registration.agentId, registration.proofNonce, [
      registration.primaryPubkey,
      ...registration.pubkeySet,
    ]);
    if (conflicts.agentExists) throw agentIdExists();
    if (conflicts.nonceUsed) throw proofNonceUsed();
    await assertRegistrationProof(registration);
    // Named here for a clear answer; agent_keys' unique index decides concurrent registrations.
    const bound = new Set(conflicts.boundPubkeys);
    if (bound.has(registration.primaryPubkey)) throw pubkeyInUse('/primary_pubkey');
    const listed = registration.pubkeySet.findIndex((key) => bound.has(key));
    if (listed >= 0) throw pubkeyInUse(`/pubkey_set/${listed}`);

    const at = this.now();
    const keyOf = (pubkey: string, primary: boolean) => ({
      pubkey,
      primary,
      status: 'active' as const,
      addedAt: at,
      revokedAt: null,
      revokedReason: null,
    });
    const agent: Agent = {
      agentId: registration.agentId,
      primaryPubkey: registration.primaryPubkey,
      keys: [keyOf(registration.primaryPubkey, true), ...registration.pubkeySet.map((k) => keyOf(k, false))],
      identityLevel: registration.identityLevel,
      status: 'active',
      frozenReason: null,
      createdAt: at,
      updatedAt: at,
    };
    return writer.create(agent, registration.proofNonce, (stored) => events.registered(stored, caller));
  }

  async get(agentId: string): Promise<Agent> {
    const agent = await this.deps.reader.get(agentId);
    if (!agent) throw agentNotFound(agentId);
    return agent;
  }

  /**
   * The agents found among `agentIds`, each once. A malformed id (canNameAgent: not what
   * registration enforces) cannot exist, so it is absent like an unknown one; it is dropped before
   * the query because PostgreSQL refuses a whole statement over some of them (a NUL byte), which
   * would fail every batch-mate.
   */
  async getMany(agentIds: string[]): Promise<Agent[]> {
    if (agentIds.length > AGENT_BATCH_MAX) {
      throw validationFailed([{ pointer: '/agent_ids', message: `must hold at most ${AGENT_BATCH_MAX} ids` }]);
    }
    const wellFormed = [...new Set(agentIds.filter(canNameAgent))];
    return wellFormed.length === 0 ? [] : this.deps.reader.getMany(wellFormed);
  }

  async list(
    page: PageQuery,
    filter: { identityLevel: IdentityLevel | null; status: AgentStatus | null },
  ): Promise<Page<Agent>> {
    const limit = resolveLimit(page.limit);
    const after = page.cursor ? decodeCursor(page.cursor) : null;
    const rows = await this.deps.reader.list({ ...filter, after, take: limit + 1 });
    return toPage(rows, limit, agentKey);
  }

  async changeLevel(
    agentId: string,
    wanted: IdentityLevel | null,
    reason: string,
    caller: Caller,
  ): Promise<{ agent: Agent; transition: IdentityTransition }> {
    if (wanted === null) throw validationFailed([{ pointer: '/identity_level', message: 'is required' }]);
    assertReason(reason);
    const { agent, change } = await this.deps.writer.change(
      agentId,
      (current) =>
        planLevelChange(current, wanted, {
          transitionId: newId('itr'),
          reason,
          actor: caller.actor ?? 'unknown',
          at: this.now(),
        }),
      (after, planned) => this.deps.events.changed(after, planned, caller),
    );
    if (change.kind !== 'level_changed') throw new Error(`unexpected change ${change.kind}`);
    return { agent, transition: change.transition };
  }

  /** Newest first; an unknown agent is 404 rather than an empty history. */
  async listTransitions(agentId: string, page: PageQuery): Promise<Page<IdentityTransition>> {
    const limit = resolveLimit(page.limit);
    const after = page.cursor ? decodeCursor(page.cursor) : null;
    const rows = await this.deps.reader.listTransitions(agentId, after, limit + 1);
    if (rows.length === 0 && !(await this.deps.reader.get(agentId))) throw agentNotFound(agentId);
    return toPage(rows, limit, transitionKey);
  }

  async revokeKey(agentId: string, pubkey: string, reason: string, caller: Caller): Promise<Agent> {
    const normalized = normalizePublicKey(pubkey);
    if (normalized === null) {
      throw validationFailed([{ pointer: '/pubkey', message: 'must be base64 of a 32-byte ed25519 public key' }]);
    }
    assertReason(reason);
    return this.mutate(agentId, (agent) => planKeyRevocation(agent, normalized, reason, this.now()), caller);
  }

  async freeze(agentId: string, reason: string, caller: Caller): Promise<Agent> {
    assertReason(reason);
    return this.mutate(agentId, (agent) => planFreeze(agent, reason, this.now()), caller);
  }

  async unfreeze(agentId: string, reason: string, caller: Caller): Promise<Agent> {
    assertReason(reason);
    return this.mutate(agentId, (agent) => planUnfreeze(agent, reason, this.now()), caller);
  }

  /**
   * Valid when any unrevoked key of the agent verifies. The agent comes back either way (when it
   * exists) so the gateway can apply its level and frozen status without a second call.
   */
  async verifySignature(agentId: string, message: Uint8Array, signature: string): Promise<SignatureCheck> {
    const agent = await this.deps.reader.get(agentId);
    if (!agent) return { valid: false, pubkey: '', agent: null };
    const active = agent.keys.filter((key) => key.status === 'active').map((key) => key.pubkey);
    const pubkey = await verifyWithAnyKeyAsync(signature, message, active);
    return pubkey === null ? { valid: false, pubkey: '', agent } : { valid: true, pubkey, agent };
  }

  private async mutate(agentId: string, plan: Parameters<AgentWriter<E>['change']>[1], caller: Caller): Promise<Agent> {
    const { agent } = await this.deps.writer.change(agentId, plan, (after, change) =>
      this.deps.events.changed(after, change, caller),
    );
    return agent;
  }
}
