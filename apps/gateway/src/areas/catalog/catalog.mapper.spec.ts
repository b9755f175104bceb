import { MarketContractError } from '../../lib/mapper-kit';
import { contractTemplateToJson, fixtureSellerToJson, fixtureToJson, workProductTemplateToJson } from './catalog.mapper';

const T = new Date('2026-11-21T18:00:00.000Z');

describe('contractTemplateToJson', () => {
  const template = {
    templateId: 'translation',
    name: 'Translation',
    description: 'd',
    tags: ['text'],
    acceptanceCriteria: '- faithful',
    defaultVerificationMode: 'buyer',
    defaultDeadline: 'P2D',
    createdAt: T,
    updatedAt: T,
  };

  it('should give null for an absent budget and work-product template', () => {
    expect(contractTemplateToJson(template)).toEqual({
      template_id: 'translation',
      name: 'Translation',
      description: 'd',
      tags: ['text'],
      acceptance_criteria: '- faithful',
      default_verification_mode: 'buyer',
      default_deadline: 'P2D',
      suggested_budget: null,
      work_product_template_id: null,
      created_at: T.toISOString(),
      updated_at: T.toISOString(),
    });
  });

  it('should map a suggested budget and refuse an unknown mode', () => {
    expect(contractTemplateToJson({ ...template, suggestedBudget: { amount: '5', currency: 'CREDIT' } }).suggested_budget).toEqual({ amount: '5', currency: 'CREDIT' });
    expect(() => contractTemplateToJson({ ...template, defaultVerificationMode: 'magic' })).toThrow(MarketContractError);
  });
});

describe('workProductTemplateToJson', () => {
  it('should parse the payload schema and refuse malformed JSON', () => {
    const t = {
      templateId: 'w',
      name: 'n',
      description: '',
      tags: [],
      payloadSchemaJson: '{"type":"object"}',
      requiredArtifacts: ['report'],
      acceptanceCriteria: '',
      createdAt: T,
      updatedAt: T,
    };
    expect(workProductTemplateToJson(t)).toMatchObject({ payload_schema: { type: 'object' }, required_artifacts: ['report'] });
    expect(() => workProductTemplateToJson({ ...t, payloadSchemaJson: '{' })).toThrow(MarketContractError);
  });
});

describe('fixtures', () => {
  it('should parse the spec and map the seller ranking row', () => {
    const f = {
      fixtureId: 'fx',
      type: 'unit_tests',
      evidenceTier: 'attested',
      determinismClass: 'bounded',
      specJson: '{"cmd":"npm test"}',
      objectId: 'obj_1',
      signerAgentId: 'a:agent:s',
      tags: ['code'],
      createdAt: T,
    };
    expect(fixtureToJson(f)).toEqual({
      fixture_id: 'fx',
      type: 'unit_tests',
      evidence_tier: 'attested',
      determinism_class: 'bounded',
      spec: { cmd: 'npm test' },
      object_id: 'obj_1',
      signer_agent_id: 'a:agent:s',
      tags: ['code'],
      created_at: T.toISOString(),
    });
    expect(fixtureSellerToJson({ sellerId: 's', passedVerifications: 2, failedVerifications: 1, fixtureIds: ['fx'], lastPassedAt: T })).toEqual({
      seller_id: 's',
      passed_verifications: 2,
      failed_verifications: 1,
      fixture_ids: ['fx'],
      last_passed_at: T.toISOString(),
    });
    expect(() => fixtureSellerToJson({ sellerId: 's', passedVerifications: 0, failedVerifications: 0, fixtureIds: [], lastPassedAt: undefined })).toThrow(
      MarketContractError,
    );
  });
});
