import { errors } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { Actor, CaseStatus, CaseType } from './case.model';
import type { CreateCaseInput, UpdateCaseInput } from './case-input';
import { caseStatus, caseType } from './cases.events';

// Proto requests → the cases service's inputs (answers are encoded by cases.events.ts, shared
// with the event payloads).

export { toProtoCase, toProtoCaseEvent } from './cases.events';

export function actorOf(actor: commerceV1.Actor | undefined): Actor {
  return { agentId: actor?.agentId ? actor.agentId : null, operator: actor?.operator === true };
}

/** UNSPECIFIED or an unknown number → undefined (the service answers 400 for a missing type). */
function typeOf(value: commerceV1.CaseType): CaseType | undefined {
  return value === 0 ? undefined : caseType.toWire(value);
}

/** Absent → no move; UNSPECIFIED or an unknown number → 400 validation_failed. */
function statusOf(value: commerceV1.CaseStatus | undefined): CaseStatus | undefined {
  if (value === undefined) return undefined;
  const status = value === 0 ? undefined : caseStatus.toWire(value);
  if (status === undefined) throw errors.invalidArgument('validation_failed', 'status is not a known value', { field: 'status' });
  return status;
}

export function createCaseInput(req: commerceV1.CreateCaseRequest): CreateCaseInput {
  return {
    dealId: req.dealId,
    type: typeOf(req.type),
    reason: req.reason,
    amount: req.amount,
    evidenceRefs: req.evidenceRefs,
    idempotencyKey: req.idempotencyKey,
  };
}

export function updateCaseInput(req: commerceV1.UpdateCaseRequest): UpdateCaseInput {
  return { caseId: req.caseId, status: statusOf(req.status), addEvidenceRefs: req.addEvidenceRefs, note: req.note };
}
