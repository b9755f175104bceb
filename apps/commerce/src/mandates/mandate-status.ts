import { errors } from '@exchange/platform';
import type { MandateRecord, MandateStatus } from './mandate.model';
import type { Actor } from './mandate-access';

// Who may move a mandate's stored status, and where (README "Mandates"): the signer pauses,
// resumes and revokes; the operator may pause or revoke (not resume: the signer decides that).
// active ⇄ paused, active | paused → revoked; revoked, expired and exhausted are final.

export type SettableStatus = Extract<MandateStatus, 'active' | 'paused' | 'revoked'>;
const SETTABLE: readonly MandateStatus[] = ['active', 'paused', 'revoked'];

/** The status asked for, if one that can be set (else 400 validation_failed). */
export function settableStatus(value: MandateStatus | undefined): SettableStatus {
  if (value === undefined || !SETTABLE.includes(value)) {
    throw errors.invalidArgument('validation_failed', 'status must be active, paused or revoked', { field: 'status' });
  }
  return value as SettableStatus;
}

/**
 * The stored status after `wanted`, or null when the mandate is already there (nothing to do).
 * 403 not_mandate_signer for a caller who may not make this move; 409 invalid_state from a final
 * status or for a move that does not exist.
 */
export function statusMove(m: Pick<MandateRecord, 'mandateId' | 'signerAgentId'>, current: MandateStatus, wanted: SettableStatus, actor: Actor): SettableStatus | null {
  const signer = !actor.operator && actor.agentId === m.signerAgentId;
  const operatorMay = actor.operator && wanted !== 'active';
  if (!signer && !operatorMay) {
    throw errors.permissionDenied('not_mandate_signer', `only the signer of mandate ${m.mandateId} may ${wanted === 'active' ? 'resume' : 'change'} it`, { mandate_id: m.mandateId });
  }
  if (current === wanted) return null;
  if (current === 'revoked' || current === 'expired' || current === 'exhausted') throw errors.invalidState('mandate', current, wanted);
  return wanted;
}
