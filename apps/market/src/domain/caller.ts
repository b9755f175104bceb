import { errors } from '@exchange/platform';

/** Who is calling, as the gateway told us (gRPC metadata). */
export interface Caller {
  /** "operator:<name>" | "agent:<agent_id>" | null. */
  actor: string | null;
  /** The acting agent (X-Agent-Id, or the signing agent). */
  agentId: string | null;
  traceId: string | null;
}

export function isOperator(caller: Pick<Caller, 'actor'>): boolean {
  return caller.actor !== null && caller.actor.startsWith('operator:');
}

/** AwardOffer and ResolveDispute: 403 operator_required unless the actor is an operator. */
export function requireOperator(caller: Caller): void {
  if (!isOperator(caller)) throw errors.permissionDenied('operator_required', 'only an operator may do this');
}

/**
 * The party a request acts for: the field, or the acting agent when the field is empty.
 * Empty with no acting agent → 400 validation_failed; a named acting agent that is not the
 * party → 403 acting_agent_mismatch.
 */
export function resolveParty(caller: Caller, field: string, value: string | undefined | null): string {
  const given = value ?? '';
  if (given === '') {
    if (caller.agentId === null) throw errors.invalidArgument('validation_failed', `${field} is required`, { field });
    return caller.agentId;
  }
  if (caller.agentId !== null && caller.agentId !== given) {
    throw errors.permissionDenied('acting_agent_mismatch', `the acting agent ${caller.agentId} is not ${field} ${given}`, {
      field,
      acting_agent: caller.agentId,
    });
  }
  return given;
}

/**
 * For actions by whoever calls (cancel, withdraw): the agent the caller acts as, null for an
 * operator acting on its own.
 */
export function actingAgent(caller: Caller): string | null {
  if (caller.agentId !== null) return caller.agentId;
  if (caller.actor !== null && caller.actor.startsWith('agent:')) return caller.actor.slice('agent:'.length);
  return null;
}

/** Idempotency scope of the market's own keys: actor + acting agent. */
export function idempotencyScope(caller: Caller): string {
  return `${caller.actor ?? ''}|${caller.agentId ?? ''}`;
}
