import { identityV1, identityV1Wire } from '@exchange/proto';
import type { AgentStatus, IdentityLevel } from './agent.model';
import { validationFailed } from './validation';

// domain → proto is shared with the outbox events (agents.events); proto → domain is here.
export { toProtoAgent, toProtoLevel, toProtoTransition } from './agents.events';

const { IdentityLevel: ProtoLevel, AgentStatus: ProtoStatus } = identityV1;

// The domain's names are the wire names (generated tables, libs/proto).
/** null for UNSPECIFIED ("not given"); 400 for numbers outside the enum. */
export function fromProtoLevel(level: identityV1.IdentityLevel, pointer = '/identity_level'): IdentityLevel | null {
  if (level === ProtoLevel.IDENTITY_LEVEL_UNSPECIFIED) return null;
  const domain: IdentityLevel | undefined = identityV1Wire.identityLevel.toWire(level);
  if (domain === undefined) throw validationFailed([{ pointer, message: 'is not a known identity level' }]);
  return domain;
}

export function fromProtoStatus(status: identityV1.AgentStatus, pointer = '/status'): AgentStatus | null {
  if (status === ProtoStatus.AGENT_STATUS_UNSPECIFIED) return null;
  const domain: AgentStatus | undefined = identityV1Wire.agentStatus.toWire(status);
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
