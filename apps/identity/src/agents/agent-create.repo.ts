import type { EventEnvelope } from '@exchange/events';
import type pg from 'pg';
import type { Agent } from './agent.model';
import { agentIdExists, proofNonceUsed, pubkeyInUse } from './identity.errors';

// A registration in ONE statement (so one round trip and an implicit transaction): the agent, its
// keys, the proof nonce and the outbox event as data-modifying CTEs. It replaced a Prisma
// interactive transaction (BEGIN, four statements, COMMIT on a pool of 5), which capped
// POST /v1/agents at the commit latency times that pool. The unique indexes still decide
// concurrent twins (the loser waits for the winner's commit, then fails); the violated constraint
// names the cause.

const CREATE_AGENT = {
  name: 'identity_create_agent',
  text: `WITH agent AS (
      INSERT INTO agents (agent_id, primary_pubkey, identity_level, status, frozen_reason, created_at, updated_at)
      VALUES ($1, $2, $3::identity_level, $4::agent_status, $5, $6, $7)
      RETURNING agent_id
    ), keys AS (
      INSERT INTO agent_keys (agent_id, pubkey, position, is_primary, status, added_at)
      SELECT agent.agent_id, k.pubkey, (k.ord - 1)::int, k.is_primary, k.status::key_status, k.added_at
        FROM agent, unnest($8::text[], $9::boolean[], $10::text[], $11::timestamptz[]) WITH ORDINALITY AS k(pubkey, is_primary, status, added_at, ord)
    ), nonce AS (
      INSERT INTO proof_nonces (nonce, agent_id, created_at) SELECT $12, agent.agent_id, $6 FROM agent
    )
    INSERT INTO outbox_events (id, type, payload) SELECT $13, $14, $15::jsonb FROM agent`,
};

const CONFLICTS: Record<string, () => Error> = {
  agents_pkey: agentIdExists,
  agent_keys_pkey: () => pubkeyInUse(),
  agent_keys_pubkey_key: () => pubkeyInUse(),
  proof_nonces_pkey: proofNonceUsed,
};

export async function createAgent(pool: pg.Pool, agent: Agent, proofNonce: string, event: EventEnvelope): Promise<void> {
  try {
    await pool.query({
      ...CREATE_AGENT,
      values: [
        agent.agentId,
        agent.primaryPubkey,
        agent.identityLevel,
        agent.status,
        agent.frozenReason,
        agent.createdAt,
        agent.updatedAt,
        agent.keys.map((k) => k.pubkey),
        agent.keys.map((k) => k.primary),
        agent.keys.map((k) => k.status),
        agent.keys.map((k) => k.addedAt),
        proofNonce,
        event.id,
        event.type,
        JSON.stringify(event),
      ],
    });
  } catch (err) {
    const { code, constraint } = err as { code?: string; constraint?: string };
    const conflict = code === '23505' && constraint ? CONFLICTS[constraint] : undefined;
    throw conflict ? conflict() : err;
  }
}
