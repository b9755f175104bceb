import { inheritFromTemplate, isSandboxContract, type ContractFields } from './inheritance';
import type { ContractTemplate } from './model';

const now = new Date('2026-11-22T12:00:00.000Z');

const template: ContractTemplate = {
  templateId: 'code-change-with-tests',
  name: 'Code change with tests',
  description: 'Implement a change and prove it with tests.',
  tags: ['code', 'tests'],
  acceptanceCriteria: '- The suite passes',
  defaultVerificationMode: 'verifier',
  defaultDeadline: 'P3D',
  suggestedBudget: { amount: 50_500_000n, currency: 'CREDIT' },
  workProductTemplateId: 'patch-with-tests',
  createdAt: now,
  updatedAt: now,
};

const empty: ContractFields = {
  description: '',
  tags: [],
  acceptanceCriteria: '',
  verificationMode: null,
  budget: undefined,
  deadline: undefined,
  workProductTemplateId: null,
};

describe('inheritFromTemplate', () => {
  it('should fill every field the request left out from the template', () => {
    expect(inheritFromTemplate(empty, template, now)).toEqual({
      description: 'Implement a change and prove it with tests.',
      tags: ['code', 'tests'],
      acceptanceCriteria: '- The suite passes',
      verificationMode: 'verifier',
      budget: { amount: '50.5', currency: 'CREDIT' },
      deadline: new Date('2026-11-25T12:00:00.000Z'),
      workProductTemplateId: 'patch-with-tests',
    });
  });

  it('should keep whatever the request gave', () => {
    const given: ContractFields = {
      description: 'Mine',
      tags: ['rust'],
      acceptanceCriteria: 'My criteria',
      verificationMode: 'buyer',
      budget: { amount: '12', currency: 'CREDIT' },
      deadline: new Date('2026-12-01T00:00:00.000Z'),
      workProductTemplateId: 'review-report',
    };
    expect(inheritFromTemplate(given, template, now)).toEqual(given);
  });

  it('should leave budget absent when the template suggests none', () => {
    expect(inheritFromTemplate(empty, { ...template, suggestedBudget: null, workProductTemplateId: null }, now)).toMatchObject({
      budget: undefined,
      workProductTemplateId: null,
    });
  });

  it('should change nothing without a template (the required-field rules then apply)', () => {
    expect(inheritFromTemplate(empty, null, now)).toEqual(empty);
  });

  it('should not share the template’s tag array with the contract', () => {
    const out = inheritFromTemplate(empty, template, now);
    expect(out.tags).not.toBe(template.tags);
  });
});

describe('isSandboxContract', () => {
  it('should mark every contract of a sandbox exchange and a SANDBOX_UNVERIFIED buyer’s on mainnet', () => {
    expect(isSandboxContract('sandbox', false)).toBe(true);
    expect(isSandboxContract('sandbox', true)).toBe(true);
    expect(isSandboxContract('mainnet', true)).toBe(true);
    expect(isSandboxContract('mainnet', false)).toBe(false);
    expect(isSandboxContract(undefined, false)).toBe(false);
  });
});
