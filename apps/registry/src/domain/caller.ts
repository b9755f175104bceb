import { errors } from '@exchange/platform';

/** Who is calling, as the gateway told us (gRPC metadata). */
export interface Caller {
  /** "operator:<name>" | "agent:<agent_id>" | null. */
  actor: string | null;
  /** The acting agent (X-Agent-Id, or the signing agent). */
  agentId: string | null;
}

/**
 * Whose view a read is decided for: the operator (operator token without an acting agent), an
 * agent (any request with an acting agent), or anonymous (no caller: public only).
 */
export type Viewer = { kind: 'operator'; name: string } | { kind: 'agent'; agentId: string } | { kind: 'anonymous' };

export function viewerOf(caller: Caller): Viewer {
  if (caller.agentId !== null) return { kind: 'agent', agentId: caller.agentId };
  if (caller.actor?.startsWith('operator:')) return { kind: 'operator', name: caller.actor.slice('operator:'.length) };
  if (caller.actor?.startsWith('agent:')) return { kind: 'agent', agentId: caller.actor.slice('agent:'.length) };
  return { kind: 'anonymous' };
}

export function isOperatorActor(caller: Caller): boolean {
  return caller.actor !== null && caller.actor.startsWith('operator:');
}

/** Takedown / reinstate: 403 operator_required unless the actor is an operator; returns its name. */
export function requireOperator(caller: Caller): string {
  if (!isOperatorActor(caller)) throw errors.permissionDenied('operator_required', 'only an operator may do this');
  return (caller.actor as string).slice('operator:'.length);
}

/** The acting agent, or null for the operator acting on its own. */
export function actingAgent(caller: Caller): string | null {
  const viewer = viewerOf(caller);
  return viewer.kind === 'agent' ? viewer.agentId : null;
}
