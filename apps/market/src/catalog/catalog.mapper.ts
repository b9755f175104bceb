import { formatAmount } from '@exchange/platform';
import type { marketV1Catalog } from '@exchange/proto';
import type { ContractTemplate, FixtureSeller, WorkProductTemplate } from './model';

// The fixture's encoder is shared with the outbox events.
export { toProtoFixture } from './catalog.events';

export function toProtoContractTemplate(t: ContractTemplate): marketV1Catalog.ContractTemplate {
  return {
    templateId: t.templateId,
    name: t.name,
    description: t.description,
    tags: t.tags,
    acceptanceCriteria: t.acceptanceCriteria,
    defaultVerificationMode: t.defaultVerificationMode,
    defaultDeadline: t.defaultDeadline,
    suggestedBudget: t.suggestedBudget ? { amount: formatAmount(t.suggestedBudget.amount), currency: t.suggestedBudget.currency } : undefined,
    workProductTemplateId: t.workProductTemplateId ?? undefined,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function toProtoWorkProductTemplate(t: WorkProductTemplate): marketV1Catalog.WorkProductTemplate {
  return {
    templateId: t.templateId,
    name: t.name,
    description: t.description,
    tags: t.tags,
    payloadSchemaJson: JSON.stringify(t.payloadSchema),
    requiredArtifacts: t.requiredArtifacts,
    acceptanceCriteria: t.acceptanceCriteria,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function toProtoFixtureSeller(s: FixtureSeller): marketV1Catalog.FixtureSeller {
  return {
    sellerId: s.sellerId,
    passedVerifications: s.passedVerifications,
    failedVerifications: s.failedVerifications,
    fixtureIds: s.fixtureIds,
    lastPassedAt: s.lastPassedAt,
  };
}
