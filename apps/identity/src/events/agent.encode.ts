import { identityV1 } from '@exchange/proto';
import type { Agent, AgentKey, AgentStatus, IdentityLevel, IdentityTransition } from '../domain/agent.model';

// domain → proto, shared by the outbox events and the gRPC mapper (which re-exports it).
const { IdentityLevel: ProtoLevel, AgentStatus: ProtoStatus, KeyStatus: ProtoKeyStatus } = identityV1;

// Proto enum numbers follow IDENTITY_LEVELS order, offset by UNSPECIFIED = 0.
export const PROTO_LEVEL: Readonly<Record<IdentityLevel, identityV1.IdentityLevel>> = {
  SANDBOX_UNVERIFIED: ProtoLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
  MAINNET_BASIC: ProtoLevel.IDENTITY_LEVEL_MAINNET_BASIC,
  MAINNET_ATTESTED: ProtoLevel.IDENTITY_LEVEL_MAINNET_ATTESTED,
  MAINNET_VERIFIED: ProtoLevel.IDENTITY_LEVEL_MAINNET_VERIFIED,
  MAINNET_INSTITUTIONAL: ProtoLevel.IDENTITY_LEVEL_MAINNET_INSTITUTIONAL,
};

export const PROTO_STATUS: Readonly<Record<AgentStatus, identityV1.AgentStatus>> = {
  active: ProtoStatus.AGENT_STATUS_ACTIVE,
  frozen: ProtoStatus.AGENT_STATUS_FROZEN,
};

export function toProtoLevel(level: IdentityLevel): identityV1.IdentityLevel {
  return PROTO_LEVEL[level];
}

function toProtoKey(key: AgentKey): identityV1.AgentKey {
  return {
    pubkey: key.pubkey,
    primary: key.primary,
    status: key.status === 'active' ? ProtoKeyStatus.KEY_STATUS_ACTIVE : ProtoKeyStatus.KEY_STATUS_REVOKED,
    addedAt: key.addedAt,
    revokedAt: key.revokedAt ?? undefined,
    revokedReason: key.revokedReason ?? undefined,
  };
}

export function toProtoAgent(agent: Agent): identityV1.Agent {
  return {
    agentId: agent.agentId,
    primaryPubkey: agent.primaryPubkey,
    keys: agent.keys.map(toProtoKey),
    identityLevel: PROTO_LEVEL[agent.identityLevel],
    status: PROTO_STATUS[agent.status],
    frozenReason: agent.frozenReason ?? undefined,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  };
}

export function toProtoTransition(t: IdentityTransition): identityV1.IdentityTransition {
  return {
    transitionId: t.transitionId,
    agentId: t.agentId,
    fromLevel: PROTO_LEVEL[t.fromLevel],
    toLevel: PROTO_LEVEL[t.toLevel],
    reason: t.reason,
    actor: t.actor,
    createdAt: t.createdAt,
  };
}
