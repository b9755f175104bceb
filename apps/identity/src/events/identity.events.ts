import { newEvent, type EventEnvelope } from '@exchange/events';
import { identityV1Events } from '@exchange/proto';
import type { Agent } from '../domain/agent.model';
import type { AgentChange } from '../domain/agent-changes';
import type { AgentEvents, Caller } from '../domain/agent.ports';
import { toProtoAgent, toProtoTransition } from './agent.encode';

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
