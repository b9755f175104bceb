import { enqueueEvent, type EventEnvelope } from '@exchange/events';
import type pg from 'pg';
import { createAgent } from './agent-create.repo';
import type { Agent } from './agent.model';
import { applyChange, type AgentChange } from './agent-changes';
import type { AgentWriter } from './agent.ports';
import { agentNotFound } from './identity.errors';
import { canNameAgent } from './validation';
import type { IdentityPrisma, IdentityTx } from '../data/prisma';

/**
 * Writes through Prisma, registrations in one SQL statement. Every method is one transaction holding the state change and its
 * outbox event; `afterCommit` wakes the outbox relay so events leave without waiting for a poll.
 */
export class PrismaAgentWriter implements AgentWriter<EventEnvelope> {
  constructor(
    private readonly prisma: IdentityPrisma,
    /** Registrations: one statement on the service's pg pool (agent-create.repo.ts). */
    private readonly pool: pg.Pool,
    private readonly afterCommit: () => void = () => undefined,
  ) {}

  async create(agent: Agent, proofNonce: string, eventFor: (agent: Agent) => EventEnvelope): Promise<Agent> {
    await createAgent(this.pool, agent, proofNonce, eventFor(agent));
    this.afterCommit();
    return agent;
  }

  async change(
    agentId: string,
    plan: (agent: Agent) => AgentChange,
    eventFor: (after: Agent, change: AgentChange) => EventEnvelope,
  ): Promise<{ agent: Agent; change: AgentChange }> {
    if (!canNameAgent(agentId)) throw agentNotFound(agentId);
    const result = await this.prisma.$transaction(async (tx) => {
      // Row lock first: concurrent changes to one agent run one after the other, each planning
      // from the state the previous one committed.
      const locked = await tx.$queryRaw<Array<{ agent_id: string }>>`
        SELECT agent_id FROM agents WHERE agent_id = ${agentId} FOR UPDATE`;
      if (locked.length === 0) throw agentNotFound(agentId);
      const current = await loadAgent(tx, agentId);
      const change = plan(current);
      const after = applyChange(current, change);
      await store(tx, after, change);
      await enqueueEvent(tx, eventFor(after, change));
      return { agent: after, change };
    });
    this.afterCommit();
    return result;
  }
}

async function loadAgent(tx: IdentityTx, agentId: string): Promise<Agent> {
  const row = await tx.agent.findUniqueOrThrow({ where: { agentId }, include: { keys: { orderBy: { position: 'asc' } } } });
  return {
    agentId: row.agentId,
    primaryPubkey: row.primaryPubkey,
    keys: row.keys.map((k) => ({
      pubkey: k.pubkey,
      primary: k.isPrimary,
      status: k.status,
      addedAt: k.addedAt,
      revokedAt: k.revokedAt,
      revokedReason: k.revokedReason,
    })),
    identityLevel: row.identityLevel,
    status: row.status,
    frozenReason: row.frozenReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function store(tx: IdentityTx, after: Agent, change: AgentChange): Promise<void> {
  const where = { agentId: after.agentId };
  switch (change.kind) {
    case 'level_changed':
      await tx.agent.update({ where, data: { identityLevel: after.identityLevel, updatedAt: after.updatedAt } });
      await tx.identityTransition.create({ data: change.transition });
      return;
    case 'key_revoked':
      await tx.agentKey.update({
        where: { agentId_pubkey: { agentId: after.agentId, pubkey: change.pubkey } },
        data: { status: 'revoked', revokedAt: change.at, revokedReason: change.reason },
      });
      await tx.agent.update({ where, data: { updatedAt: after.updatedAt } });
      return;
    case 'frozen':
    case 'unfrozen':
      await tx.agent.update({
        where,
        data: { status: after.status, frozenReason: after.frozenReason, updatedAt: after.updatedAt },
      });
      return;
  }
}
