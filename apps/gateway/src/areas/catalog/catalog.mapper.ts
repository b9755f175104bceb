import type { marketV1Catalog } from '@exchange/proto';
import type { ContractTemplateJson, FixtureJson, FixtureSellerJson, WorkProductTemplateJson } from './catalog.schemas';
import { contractChecks } from '../../lib/mapper-kit';
import { MarketContractError } from '../../lib/mapper-kit';

// Proto → REST for the market catalog: JSON text fields (`payload_schema_json`, `spec_json`) →
// parsed objects, Dates → RFC 3339, absent optionals → null. Pure functions, no I/O.

const { required, parsedJson } = contractChecks((what) => new MarketContractError(what));
const MODES = new Set(['verifier', 'buyer', 'auto']);

const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();

export function contractTemplateToJson(template: marketV1Catalog.ContractTemplate | undefined): ContractTemplateJson {
  const t = required(template, 'contract template');
  if (!MODES.has(t.defaultVerificationMode)) throw new MarketContractError('template default_verification_mode');
  return {
    template_id: t.templateId,
    name: t.name,
    description: t.description,
    tags: [...t.tags],
    acceptance_criteria: t.acceptanceCriteria,
    default_verification_mode: t.defaultVerificationMode as ContractTemplateJson['default_verification_mode'],
    default_deadline: t.defaultDeadline,
    suggested_budget: t.suggestedBudget ? { amount: t.suggestedBudget.amount, currency: t.suggestedBudget.currency } : null,
    work_product_template_id: t.workProductTemplateId ?? null,
    created_at: iso(t.createdAt, 'template created_at'),
    updated_at: iso(t.updatedAt, 'template updated_at'),
  };
}

export function workProductTemplateToJson(template: marketV1Catalog.WorkProductTemplate | undefined): WorkProductTemplateJson {
  const t = required(template, 'work-product template');
  return {
    template_id: t.templateId,
    name: t.name,
    description: t.description,
    tags: [...t.tags],
    payload_schema: parsedJson(t.payloadSchemaJson, 'payload_schema_json'),
    required_artifacts: [...t.requiredArtifacts],
    acceptance_criteria: t.acceptanceCriteria,
    created_at: iso(t.createdAt, 'template created_at'),
    updated_at: iso(t.updatedAt, 'template updated_at'),
  };
}

export function fixtureToJson(f: marketV1Catalog.Fixture): FixtureJson {
  return {
    fixture_id: f.fixtureId,
    type: f.type,
    evidence_tier: f.evidenceTier,
    determinism_class: f.determinismClass,
    spec: parsedJson(f.specJson, 'fixture spec_json'),
    object_id: f.objectId,
    signer_agent_id: f.signerAgentId,
    tags: [...f.tags],
    created_at: iso(f.createdAt, 'fixture created_at'),
  };
}

export function fixtureSellerToJson(s: marketV1Catalog.FixtureSeller): FixtureSellerJson {
  return {
    seller_id: s.sellerId,
    passed_verifications: s.passedVerifications,
    failed_verifications: s.failedVerifications,
    fixture_ids: [...s.fixtureIds],
    last_passed_at: iso(s.lastPassedAt, 'fixture seller last_passed_at'),
  };
}
