import { commerceV1Wire, type commerceV1 } from '@exchange/proto';
import { CommerceContractError, contractChecks } from '../../lib/mapper-kit';
import type { AutonomyBodyJson, AutonomyJson, MandateJson } from './mandates.schemas';

// Proto ⇄ REST for mandates and their autonomy settings. Enums through the generated
// commerceV1Wire tables; amounts stay decimal strings. Pure functions, no I/O.

const { required, enumToJson } = contractChecks((what) => new CommerceContractError(what));
const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();

export function autonomyToJson(autonomy: commerceV1.Autonomy | undefined): AutonomyJson {
  const a = required(autonomy, 'mandate autonomy');
  const threshold = a.stepUpThreshold;
  return {
    mode: enumToJson(commerceV1Wire.autonomyMode, a.mode, 'autonomy mode'),
    step_up_threshold: threshold ? { amount: threshold.amount, currency: threshold.currency } : null,
    approval_for_new_merchants: a.approvalForNewMerchants,
    daily_limit: a.dailyLimit ?? null,
  };
}

export function autonomyFromJson(a: AutonomyBodyJson): commerceV1.Autonomy {
  return {
    mode: commerceV1Wire.autonomyMode.toProto(a.mode),
    stepUpThreshold: a.step_up_threshold && { amount: a.step_up_threshold.amount, currency: a.step_up_threshold.currency },
    approvalForNewMerchants: a.approval_for_new_merchants,
    dailyLimit: a.daily_limit,
  };
}

export function mandateToJson(mandate: commerceV1.Mandate | undefined): MandateJson {
  const m = required(mandate, 'mandate');
  return {
    mandate_id: m.mandateId,
    signer_agent_id: m.signerAgentId,
    agent_id: m.agentId,
    scope: { merchants: [...m.scopeMerchants], categories: [...m.scopeCategories], skus: [...m.scopeSkus] },
    limits: { per_transaction: m.perTransaction, total: m.totalLimit, currency: m.currency },
    expires_at: iso(m.expiresAt, 'mandate expires_at'),
    signature: m.signature,
    status: enumToJson(commerceV1Wire.mandateStatus, m.status, 'mandate status'),
    spent: m.spent,
    reserved: m.reserved,
    autonomy: autonomyToJson(m.autonomy),
    created_at: iso(m.createdAt, 'mandate created_at'),
    updated_at: iso(m.updatedAt, 'mandate updated_at'),
  };
}
