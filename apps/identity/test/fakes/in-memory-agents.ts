import { newId } from '@exchange/platform';
import type { EventEnvelope } from '@exchange/events';
import type { Agent, IdentityTransition } from '../../src/agents/agent.model';
import { applyChange, type AgentChange } from '../../src/agents/agent-changes';
import type { AgentEvents, AgentListQuery, AgentReader, AgentWriter, Caller } from '../../src/agents/agent.ports';
import { agentIdExists, agentNotFound, proofNonceUsed, pubkeyInUse } from '../../src/agents/identity.errors';

const newestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const before = (row: { createdAt: Date; id: string }, key: { createdAt: Date; id: string } | null) =>
  key === null || newestFirst(key, row) < 0;

/** The ports of AgentService over plain maps, for domain unit tests (integration tests use PostgreSQL). */
export class InMemoryAgents implements AgentReader, AgentWriter {
  readonly agents = new Map<string, Agent>();
  readonly nonces = new Set<string>();
  readonly transitions: IdentityTransition[] = [];
  readonly outbox: EventEnvelope[] = [];

  async get(agentId: string) {
    return this.agents.get(agentId) ?? null;
  }

  async getMany(agentIds: string[]) {
    // As PostgreSQL: a text parameter with a NUL byte fails the whole statement.
    if (agentIds.some((id) => id.includes('\u0000'))) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
    return agentIds.flatMap((id) => this.agents.get(id) ?? []);
  }

  async list(q: AgentListQuery) {
    return [...this.agents.values()]
      .filter((a) => (q.identityLevel === null || a.identityLevel === q.identityLevel) && (q.status === null || a.status === q.status))
      .map((a) => ({ a, createdAt: a.createdAt, id: a.agentId }))
      .filter((r) => before(r, q.after))
      .sort(newestFirst)
      .slice(0, q.take)
      .map((r) => r.a);
  }

  async listTransitions(agentId: string, after: { createdAt: Date; id: string } | null, take: number) {
    return this.transitions
      .filter((t) => t.agentId === agentId)
      .map((t) => ({ t, createdAt: t.createdAt, id: t.transitionId }))
      .filter((r) => before(r, after))
      .sort(newestFirst)
      .slice(0, take)
      .map((r) => r.t);
  }

  async isNonceUsed(nonce: string) {
    return this.nonces.has(nonce);
  }

  async boundPubkeys(pubkeys: string[]) {
    const bound = new Set([...this.agents.values()].flatMap((a) => a.keys.map((k) => k.pubkey)));
    return pubkeys.filter((key) => bound.has(key));
  }

  async registrationConflicts(agentId: string, nonce: string, pubkeys: string[]) {
    return { agentExists: this.agents.has(agentId), nonceUsed: this.nonces.has(nonce), boundPubkeys: await this.boundPubkeys(pubkeys) };
  }

  async create(agent: Agent, proofNonce: string, eventFor: (agent: Agent) => EventEnvelope) {
    if (this.agents.has(agent.agentId)) throw agentIdExists();
    if ((await this.boundPubkeys(agent.keys.map((k) => k.pubkey))).length > 0) throw pubkeyInUse();
    if (this.nonces.has(proofNonce)) throw proofNonceUsed();
    this.agents.set(agent.agentId, agent);
    this.nonces.add(proofNonce);
    this.outbox.push(eventFor(agent));
    return agent;
  }

  async change(
    agentId: string,
    plan: (agent: Agent) => AgentChange,
    eventFor: (after: Agent, change: AgentChange) => EventEnvelope,
  ) {
    const current = this.agents.get(agentId);
    if (!current) throw agentNotFound(agentId);
    const change = plan(current);
    const agent = applyChange(current, change);
    this.agents.set(agentId, agent);
    if (change.kind === 'level_changed') this.transitions.push(change.transition);
    this.outbox.push(eventFor(agent, change));
    return { agent, change };
  }
}

/** Envelopes with just enough shape to assert which event a use case emitted. */
export const recordingEvents: AgentEvents<EventEnvelope> = {
  registered: (agent: Agent, caller: Caller) => envelope('exchange.identity.agent.registered', agent, caller, {}),
  changed: (agent: Agent, change: AgentChange, caller: Caller) =>
    envelope(`exchange.identity.agent.${change.kind}`, agent, caller, change),
};

function envelope(type: string, agent: Agent, caller: Caller, data: unknown): EventEnvelope {
  return {
    id: newId('evt'),
    type,
    source: 'identity',
    subject_id: agent.agentId,
    occurred_at: agent.updatedAt.toISOString(),
    actor: caller.actor,
    data,
    trace_id: caller.traceId,
  };
}
