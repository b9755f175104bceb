import { errors } from '@exchange/platform';
import type { Agent, IdentityLevel, IdentityTransition } from './agent.model';
import { assertLevelChange } from './identity-levels';

/** A decided change to one agent, applied by the repository inside the agent's row lock. */
export type AgentChange =
  | { kind: 'level_changed'; transition: IdentityTransition }
  | { kind: 'key_revoked'; pubkey: string; reason: string; at: Date }
  | { kind: 'frozen'; reason: string; at: Date }
  | { kind: 'unfrozen'; reason: string; at: Date };

export function planLevelChange(
  agent: Agent,
  wanted: IdentityLevel,
  input: { transitionId: string; reason: string; actor: string; at: Date },
): AgentChange {
  assertLevelChange(agent.identityLevel, wanted);
  return {
    kind: 'level_changed',
    transition: {
      transitionId: input.transitionId,
      agentId: agent.agentId,
      fromLevel: agent.identityLevel,
      toLevel: wanted,
      reason: input.reason,
      actor: input.actor,
      createdAt: input.at,
    },
  };
}

/** Any non-primary key may be revoked once; the primary stays while it is primary (DESIGN §4). */
export function planKeyRevocation(agent: Agent, pubkey: string, reason: string, at: Date): AgentChange {
  const key = agent.keys.find((k) => k.pubkey === pubkey);
  if (!key) throw errors.notFound('key', pubkey);
  if (key.primary) {
    throw errors.failedPrecondition('primary_key_revocation', 'the primary key cannot be revoked', { pubkey });
  }
  if (key.status === 'revoked') throw errors.invalidState('key', 'revoked', 'revoked');
  return { kind: 'key_revoked', pubkey, reason, at };
}

export function planFreeze(agent: Agent, reason: string, at: Date): AgentChange {
  if (agent.status !== 'active') throw errors.invalidState('agent', agent.status, 'frozen');
  return { kind: 'frozen', reason, at };
}

export function planUnfreeze(agent: Agent, reason: string, at: Date): AgentChange {
  if (agent.status !== 'frozen') throw errors.invalidState('agent', agent.status, 'active');
  return { kind: 'unfrozen', reason, at };
}

/** The agent after `change`, as the repository stores it. */
export function applyChange(agent: Agent, change: AgentChange): Agent {
  switch (change.kind) {
    case 'level_changed':
      return { ...agent, identityLevel: change.transition.toLevel, updatedAt: change.transition.createdAt };
    case 'key_revoked':
      return {
        ...agent,
        keys: agent.keys.map((k) =>
          k.pubkey === change.pubkey ? { ...k, status: 'revoked', revokedAt: change.at, revokedReason: change.reason } : k,
        ),
        updatedAt: change.at,
      };
    case 'frozen':
      return { ...agent, status: 'frozen', frozenReason: change.reason, updatedAt: change.at };
    case 'unfrozen':
      return { ...agent, status: 'active', frozenReason: null, updatedAt: change.at };
  }
}
