import { identityV1, identityV1Wire } from '@exchange/proto';
import type { AgentJson, IdentityLevelName, IdentityTransitionJson } from './agents.schemas';

// Proto ⇄ REST for the Agents area: enums `IDENTITY_LEVEL_X` ⇄ `X` (tables generated from
// identity.proto), Dates ⇄ RFC 3339 strings, absent optionals ⇄ null. Pure functions, no I/O.

const { IdentityLevel, AgentStatus } = identityV1;
const { identityLevel, agentStatus, keyStatus } = identityV1Wire;

/** UNSPECIFIED (or an unknown value) → null. */
export function identityLevelToJson(level: identityV1.IdentityLevel): IdentityLevelName | null {
  return identityLevel.toWire(level) ?? null;
}

export function identityLevelFromJson(level: IdentityLevelName | undefined): identityV1.IdentityLevel {
  return level === undefined ? IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED : identityLevel.toProto(level);
}

/** Absent (or any other string) → UNSPECIFIED, no filter. */
export function agentStatusFromJson(status: identityV1Wire.AgentStatusWire | undefined): identityV1.AgentStatus {
  return agentStatus.fromWire(status) ?? AgentStatus.AGENT_STATUS_UNSPECIFIED;
}

function iso(date: Date | undefined): string {
  // Timestamps are always set by identity; epoch 0 makes a missing one visible instead of crashing.
  return (date ?? new Date(0)).toISOString();
}

/** Thrown when identity answers without the agent it must return (a contract breach → 500). */
export class MissingAgentError extends Error {
  constructor() {
    super('identity returned no agent');
  }
}

export function agentToJson(agent: identityV1.Agent | undefined): AgentJson {
  if (!agent) throw new MissingAgentError();
  return {
    agent_id: agent.agentId,
    primary_pubkey: agent.primaryPubkey,
    pubkey_set: agent.keys.filter((k) => !k.primary).map((k) => k.pubkey),
    keys: agent.keys.map((k) => ({
      pubkey: k.pubkey,
      primary: k.primary,
      status: keyStatus.toWire(k.status) ?? 'active', // UNSPECIFIED (or unknown) reads as active, as does the agent's
      added_at: iso(k.addedAt),
      revoked_at: k.revokedAt ? k.revokedAt.toISOString() : null,
      revoked_reason: k.revokedReason ?? null,
    })),
    identity_level: identityLevelToJson(agent.identityLevel) ?? 'SANDBOX_UNVERIFIED',
    status: agentStatus.toWire(agent.status) ?? 'active',
    frozen_reason: agent.frozenReason ?? null,
    created_at: iso(agent.createdAt),
    updated_at: iso(agent.updatedAt),
  };
}

export function transitionToJson(t: identityV1.IdentityTransition): IdentityTransitionJson {
  return {
    transition_id: t.transitionId,
    agent_id: t.agentId,
    from_level: identityLevelToJson(t.fromLevel),
    to_level: identityLevelToJson(t.toLevel) ?? 'SANDBOX_UNVERIFIED',
    reason: t.reason,
    actor: t.actor,
    created_at: iso(t.createdAt),
  };
}

/** `next_cursor` travels as "" in proto when there is no next page. */
export function nextCursorToJson(page: { nextCursor: string } | undefined): string | null {
  return page && page.nextCursor !== '' ? page.nextCursor : null;
}

/** Path keys are standard base64, URL-encoded; base64url is accepted and normalised. */
export function normalizePubkeyParam(value: string): string {
  const std = value.replace(/-/g, '+').replace(/_/g, '/');
  return std.length % 4 === 0 ? std : std + '='.repeat(4 - (std.length % 4));
}
