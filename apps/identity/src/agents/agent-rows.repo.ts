import type { Agent, AgentKey, AgentStatus, IdentityLevel, IdentityTransition, KeyStatus } from './agent.model';

/** Keys as aggregated by the read queries: [pubkey, is_primary, status, added_ms, revoked_ms, revoked_reason]. */
export type KeyTuple = [string, boolean, KeyStatus, number, number | null, string | null];

export interface AgentRow {
  agent_id: string;
  primary_pubkey: string;
  identity_level: IdentityLevel;
  status: AgentStatus;
  frozen_reason: string | null;
  created_at: Date;
  updated_at: Date;
  keys: KeyTuple[];
}

export interface TransitionRow {
  transition_id: string;
  agent_id: string;
  from_level: IdentityLevel;
  to_level: IdentityLevel;
  reason: string;
  actor: string;
  created_at: Date;
}

/**
 * Columns of one agent plus its keys as one JSON array (tuples, epoch milliseconds), ordered
 * primary first, so an agent is read in a single round trip without a row per key.
 */
export const AGENT_COLUMNS = `a.agent_id, a.primary_pubkey, a.identity_level, a.status, a.frozen_reason, a.created_at, a.updated_at,
  (SELECT COALESCE(json_agg(json_build_array(k.pubkey, k.is_primary, k.status,
            (extract(epoch FROM k.added_at) * 1000)::bigint,
            (extract(epoch FROM k.revoked_at) * 1000)::bigint,
            k.revoked_reason) ORDER BY k.position), '[]'::json)
     FROM agent_keys k WHERE k.agent_id = a.agent_id) AS keys`;

function toKey(t: KeyTuple): AgentKey {
  return {
    pubkey: t[0],
    primary: t[1],
    status: t[2],
    addedAt: new Date(t[3]),
    revokedAt: t[4] === null ? null : new Date(t[4]),
    revokedReason: t[5],
  };
}

export function toAgent(row: AgentRow): Agent {
  return {
    agentId: row.agent_id,
    primaryPubkey: row.primary_pubkey,
    keys: row.keys.map(toKey),
    identityLevel: row.identity_level,
    status: row.status,
    frozenReason: row.frozen_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toTransition(row: TransitionRow): IdentityTransition {
  return {
    transitionId: row.transition_id,
    agentId: row.agent_id,
    fromLevel: row.from_level,
    toLevel: row.to_level,
    reason: row.reason,
    actor: row.actor,
    createdAt: row.created_at,
  };
}
