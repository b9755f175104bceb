import { errors } from '@exchange/platform';
import type { MandateRecord, MandateStatus } from './mandate.model';

/** Who calls, as the gateway authenticated it (request `actor`). */
export interface Actor {
  /** The acting agent; null for the operator (or when the gateway sent none). */
  agentId: string | null;
  operator: boolean;
}

type Parties = Pick<MandateRecord, 'mandateId' | 'signerAgentId' | 'agentId'>;

/** The signer, the agent it was granted to, and the operator may read a mandate. */
export function canRead(m: Parties, actor: Actor): boolean {
  if (actor.operator) return true;
  return actor.agentId !== null && (actor.agentId === m.signerAgentId || actor.agentId === m.agentId);
}

/**
 * A mandate as `actor` may see it. Like the market's private resources, a non-party gets the
 * same 404 as for an unknown id, so mandate ids reveal nothing.
 */
export function readable<M extends Parties>(m: M | null, mandateId: string, actor: Actor): M {
  if (m === null || !canRead(m, actor)) throw errors.notFound('mandate', mandateId);
  return m;
}

/** Changing a mandate's autonomy is its signer's alone (403 not_mandate_signer for the other readers). */
export function requireSigner(m: Parties, actor: Actor): void {
  if (actor.operator || actor.agentId !== m.signerAgentId) {
    throw errors.permissionDenied('not_mandate_signer', `only the signer of mandate ${m.mandateId} may change it`, { mandate_id: m.mandateId });
  }
}

/** A revoked or expired mandate's settings are final (403 mandate_inactive naming the status). */
export function requireChangeable(m: Pick<MandateRecord, 'mandateId'>, status: MandateStatus): void {
  if (status === 'revoked' || status === 'expired') {
    throw errors.permissionDenied('mandate_inactive', `mandate ${m.mandateId} is ${status}`, { mandate_id: m.mandateId, status });
  }
}

/** Only the signer itself creates a mandate: not the operator, not another agent for it. */
export function requireActingSigner(signerAgentId: string, actor: Actor): void {
  if (actor.operator || actor.agentId === null || actor.agentId !== signerAgentId) {
    throw errors.permissionDenied('acting_agent_mismatch', 'signer_agent_id must be the acting agent', { field: 'signer_agent_id' });
  }
}

/** Lists need an agent or the operator. */
export function requireCaller(actor: Actor): void {
  if (!actor.operator && actor.agentId === null) throw errors.permissionDenied('forbidden', 'an acting agent or the operator is required');
}
