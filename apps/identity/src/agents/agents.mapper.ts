import { identityV1 } from '@exchange/proto';
import { IDENTITY_LEVELS, type AgentStatus, type IdentityLevel } from './agent.model';
import { validationFailed } from './validation';
import { PROTO_LEVEL } from './agents.events';

// domain → proto is shared with the outbox events (agents.events); proto → domain is here.
export { toProtoAgent, toProtoLevel, toProtoTransition } from './agents.events';

const { IdentityLevel: ProtoLevel, AgentStatus: ProtoStatus } = identityV1;

const DOMAIN_LEVEL = new Map<number, IdentityLevel>(IDENTITY_LEVELS.map((l) => [PROTO_LEVEL[l], l]));

const DOMAIN_STATUS = new Map<number, AgentStatus>([
  [ProtoStatus.AGENT_STATUS_ACTIVE, 'active'],
  [ProtoStatus.AGENT_STATUS_FROZEN, 'frozen'],
]);

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

/** Proto3 strings cannot be null: an empty cursor means "first page" / "last page". */
export function pageQuery(page: { limit: number; cursor: string } | undefined): { limit: number | null; cursor: string | null } {
  return { limit: page?.limit || null, cursor: page?.cursor || null };
}

export function pageInfo(nextCursor: string | null): { nextCursor: string } {
  return { nextCursor: nextCursor ?? '' };
}
