import { identityV1 } from '@exchange/proto';
import { IDENTITY_LEVELS, type Agent, type AgentKey, type AgentStatus, type IdentityLevel, type IdentityTransition } from '../domain/agent.model';
import { validationFailed } from '../domain/validation';

const { IdentityLevel: ProtoLevel, AgentStatus: ProtoStatus, KeyStatus: ProtoKeyStatus } = identityV1;

// Proto enum numbers follow IDENTITY_LEVELS order, offset by UNSPECIFIED = 0.
const PROTO_LEVEL: Readonly<Record<IdentityLevel, identityV1.IdentityLevel>> = {
  SANDBOX_UNVERIFIED: ProtoLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
  MAINNET_BASIC: ProtoLevel.IDENTITY_LEVEL_MAINNET_BASIC,
  MAINNET_ATTESTED: ProtoLevel.IDENTITY_LEVEL_MAINNET_ATTESTED,
  MAINNET_VERIFIED: ProtoLevel.IDENTITY_LEVEL_MAINNET_VERIFIED,
  MAINNET_INSTITUTIONAL: ProtoLevel.IDENTITY_LEVEL_MAINNET_INSTITUTIONAL,
};
const DOMAIN_LEVEL = new Map<number, IdentityLevel>(IDENTITY_LEVELS.map((l) => [PROTO_LEVEL[l], l]));

const PROTO_STATUS: Readonly<Record<AgentStatus, identityV1.AgentStatus>> = {
  active: ProtoStatus.AGENT_STATUS_ACTIVE,
  frozen: ProtoStatus.AGENT_STATUS_FROZEN,
};
const DOMAIN_STATUS = new Map<number, AgentStatus>([
  [ProtoStatus.AGENT_STATUS_ACTIVE, 'active'],
  [ProtoStatus.AGENT_STATUS_FROZEN, 'frozen'],
]);

export function toProtoLevel(level: IdentityLevel): identityV1.IdentityLevel {
  return PROTO_LEVEL[level];
}

/** null for UNSPECIFIED ("not given"); 400 for numbers outside the enum. */
export function fromProtoLevel(level: identityV1.IdentityLevel, pointer = '/identity_level'): IdentityLevel | null {
  if (level === ProtoLevel.IDENTITY_LEVEL_UNSPECIFIED) return null;
  const domain = DOMAIN_LEVEL.get(level);
  if (domain === undefined) throw validationFailed([{ pointer, message: 'is not a known identity level' }]);
  return domain;
}

export function fromProtoStatus(status: identityV1.AgentStatus, pointer = '/status'): AgentStatus | null {
  if (status === ProtoStatus.AGENT_STATUS_UNSPECIFIED) return null;
  const domain = DOMAIN_STATUS.get(status);
  if (domain === undefined) throw validationFailed([{ pointer, message: 'is not a known agent status' }]);
  return domain;
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

/** Proto3 strings cannot be null: an empty cursor means "first page" / "last page". */
export function pageQuery(page: { limit: number; cursor: string } | undefined): { limit: number | null; cursor: string | null } {
  return { limit: page?.limit || null, cursor: page?.cursor || null };
}

export function pageInfo(nextCursor: string | null): { nextCursor: string } {
  return { nextCursor: nextCursor ?? '' };
}
