import { newEvent, type EventEnvelope } from '@exchange/events';
import { identityV1, identityV1Events, identityV1Wire } from '@exchange/proto';
import type { Agent, AgentKey, AgentStatus, IdentityLevel, IdentityTransition } from './agent.model';
import type { AgentChange } from './agent-changes';
import type { AgentEvents, Caller } from './agent.ports';

// domain → proto, shared by the outbox events and the gRPC mapper (which re-exports it).

// The domain's names are the wire names: the generated tables (libs/proto) map them.

export function toProtoLevel(level: IdentityLevel): identityV1.IdentityLevel {
  return identityV1Wire.identityLevel.toProto(level);
}

function toProtoStatus(status: AgentStatus): identityV1.AgentStatus {
  return identityV1Wire.agentStatus.toProto(status);
}

function toProtoKey(key: AgentKey): identityV1.AgentKey {
  return {
    pubkey: key.pubkey,
    primary: key.primary,
    status: identityV1Wire.keyStatus.toProto(key.status),
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
    identityLevel: toProtoLevel(agent.identityLevel),
    status: toProtoStatus(agent.status),
    frozenReason: agent.frozenReason ?? undefined,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  };
}

export function toProtoTransition(t: IdentityTransition): identityV1.IdentityTransition {
  return {
    transitionId: t.transitionId,
    agentId: t.agentId,
    fromLevel: toProtoLevel(t.fromLevel),
    toLevel: toProtoLevel(t.toLevel),
    reason: t.reason,
    actor: t.actor,
    createdAt: t.createdAt,
  };
}

// Outbox events.
export const IDENTITY_EVENT_SOURCE = 'identity';

/** Subjects identity publishes (DESIGN §5: exchange.<service>.<entity>.<verb>). */
export const IDENTITY_EVENT_TYPES = {
  registered: 'exchange.identity.agent.registered',
  level_changed: 'exchange.identity.agent.level_changed',
  key_revoked: 'exchange.identity.agent.key_revoked',
  frozen: 'exchange.identity.agent.frozen',
  unfrozen: 'exchange.identity.agent.unfrozen',
} as const;

function envelope(type: string, agent: Agent, caller: Caller, data: unknown): EventEnvelope {
  return newEvent({ type, source: IDENTITY_EVENT_SOURCE, subjectId: agent.agentId, actor: caller.actor, traceId: caller.traceId, data });
}

/** `data` is the proto3 JSON form of the matching message in proto/exchange/identity/v1/events.proto. */
export const identityEvents: AgentEvents<EventEnvelope> = {
  registered(agent, caller) {
    const data = identityV1Events.AgentRegistered.toJSON({ agent: toProtoAgent(agent) });
    return envelope(IDENTITY_EVENT_TYPES.registered, agent, caller, data);
  },

  changed(agent: Agent, change: AgentChange, caller: Caller) {
    const proto = toProtoAgent(agent);
    switch (change.kind) {
      case 'level_changed':
        return envelope(
          IDENTITY_EVENT_TYPES.level_changed,
          agent,
          caller,
          identityV1Events.AgentLevelChanged.toJSON({ agent: proto, transition: toProtoTransition(change.transition) }),
        );
      case 'key_revoked':
        return envelope(
          IDENTITY_EVENT_TYPES.key_revoked,
          agent,
          caller,
          identityV1Events.AgentKeyRevoked.toJSON({ agent: proto, pubkey: change.pubkey, reason: change.reason }),
        );
      case 'frozen':
        return envelope(IDENTITY_EVENT_TYPES.frozen, agent, caller, identityV1Events.AgentFrozen.toJSON({ agent: proto, reason: change.reason }));
      case 'unfrozen':
        return envelope(
          IDENTITY_EVENT_TYPES.unfrozen,
          agent,
          caller,
          identityV1Events.AgentUnfrozen.toJSON({ agent: proto, reason: change.reason }),
        );
    }
  },
};
