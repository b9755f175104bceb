import type { FastifyRequest } from 'fastify';
import { problem } from '../plugins/app/problem';

// The acting agent at the HTTP edge: party fields of services that check it themselves (the
// market), agents the gateway checks itself (registry signers, commerce buyers), and the Actor
// commerce reads.

/** A party field: absent → "" (the market defaults it to the acting agent). */
export const partyFromJson = (agentId: string | undefined): string => agentId ?? '';

/** The agent a field names: the field, else the acting agent; another agent than the acting one is refused. */
export function signerOf(field: string | undefined, acting: string | null, what: string): string {
  if (field !== undefined && acting !== null && field !== acting) {
    throw problem(403, 'acting_agent_mismatch', `${what} must be the acting agent (${acting})`);
  }
  const agent = field ?? acting;
  if (!agent) {
    throw problem(400, 'validation_failed', `${what} is required when no agent is acting`, {
      errors: [{ pointer: `/${what}`, message: 'is required without an acting agent (X-Agent-Id)' }],
    });
  }
  return agent;
}

/** Who calls, as services that take an Actor message read it: the acting agent ("" for none) and whether the operator token was used. */
export function actorOf(request: FastifyRequest): { agentId: string; operator: boolean } {
  return { agentId: request.auth.actingAgentId ?? '', operator: request.auth.kind === 'operator' };
}
