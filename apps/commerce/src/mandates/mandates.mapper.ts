import { errors } from '@exchange/platform';
import type { MandateStatus } from './mandate.model';
import type { Actor } from './mandate-access';
import type { AutonomyInput, CreateMandateInput } from './mandate-input';
import { autonomyMode } from './mandates.events';
import { commerceV1Wire, type commerceV1, type DomainEnum } from '@exchange/proto';

// Proto requests → the mandates service's inputs (answers are encoded by mandates.events.ts's
// toProtoMandate/toProtoAutonomy, shared with the event payloads).

export { toProtoAutonomy, toProtoMandate } from './mandates.events';

const mandateStatus: DomainEnum<typeof commerceV1Wire.mandateStatus, MandateStatus> = commerceV1Wire.mandateStatus;

/** The request's actor; an empty agent_id is none. */
export function actorOf(actor: commerceV1.Actor | undefined): Actor {
  return { agentId: actor?.agentId ? actor.agentId : null, operator: actor?.operator === true };
}

export function autonomyInput(a: commerceV1.Autonomy | undefined): AutonomyInput {
  if (a === undefined) throw errors.invalidArgument('validation_failed', 'autonomy is required', { field: 'autonomy' });
  return {
    mode: autonomyMode.toWire(a.mode),
    stepUpThreshold: a.stepUpThreshold === undefined ? undefined : { amount: a.stepUpThreshold.amount, currency: a.stepUpThreshold.currency },
    approvalForNewMerchants: a.approvalForNewMerchants,
    dailyLimit: a.dailyLimit,
  };
}

export function createMandateInput(req: commerceV1.CreateMandateRequest): CreateMandateInput & { idempotencyKey: string } {
  return {
    signerAgentId: req.signerAgentId,
    agentId: req.agentId,
    scopeMerchants: req.scopeMerchants,
    scopeCategories: req.scopeCategories,
    scopeSkus: req.scopeSkus,
    perTransaction: req.perTransaction,
    totalLimit: req.totalLimit,
    currency: req.currency,
    expiresAt: req.expiresAt,
    signature: req.signature,
    autonomy: req.autonomy === undefined ? undefined : autonomyInput(req.autonomy),
    idempotencyKey: req.idempotencyKey,
  };
}

/** Absent or UNSPECIFIED → no filter; an unknown number → 400 validation_failed. */
export function statusFilter(value: commerceV1.MandateStatus | undefined): MandateStatus | undefined {
  if (value === undefined || value === 0) return undefined;
  const status = mandateStatus.toWire(value);
  if (status === undefined) throw errors.invalidArgument('validation_failed', 'status is not a known value', { field: 'status' });
  return status;
}
