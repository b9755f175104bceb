import { canonicalize } from '@exchange/crypto';
import { formatAmount } from '@exchange/platform';
import type { marketV1Catalog } from '@exchange/proto';
import type { ContractTemplate, Fixture, FixtureSeller, WorkProductTemplate } from './model';

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

export function toProtoFixture(f: Fixture): marketV1Catalog.Fixture {
  return {
    fixtureId: f.fixtureId,
    type: f.type,
    evidenceTier: f.evidenceTier,
    determinismClass: f.determinismClass,
    specJson: canonicalize(f.spec),
    objectId: f.objectId,
    signerAgentId: f.signerAgentId,
    tags: f.tags,
    createdAt: f.createdAt,
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
