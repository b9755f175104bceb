import { errors } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import { invalid } from '../domain/validation';
import type { VerificationMode } from '../domain/model';
import { getFixture } from './fixtures.repo';
import { inheritFromTemplate, type ContractFields } from './inheritance';
import { getContractTemplate, getWorkProductTemplate } from './templates.repo';

export interface ContractDefaults extends ContractFields {
  /** A deadline is always there (given or inherited); verificationMode null = the usual default. */
  deadline: Date;
  templateId: string | null;
  fixtureId: string | null;
}

/**
 * The request's contract fields ('' / [] / undefined = not given). The verification mode is
 * parsed lazily by the caller (the gRPC enum) so an unknown template is still refused first.
 */
export interface ContractRequestFields {
  templateId?: string;
  description: string;
  tags: readonly string[];
  acceptanceCriteria: string;
  verificationMode: () => VerificationMode | null;
  budget: { amount: string; currency: string } | undefined;
  deadline: Date | undefined;
  workProductTemplateId?: string;
  fixtureId?: string;
}

const given = (v: string | undefined): string | null => (v === undefined || v === '' ? null : v);

/**
 * What CreateContract uses after its template: the request's fields with the gaps filled from
 * template_id (404 contract_template_not_found), the work-product template checked (404
 * work_product_template_not_found) and fixture_id checked against the index (404
 * fixture_not_found). A deadline neither given nor inherited → 400 validation_failed (deadline);
 * budget and acceptance_criteria are checked by CreateContract's usual rules.
 */
export async function resolveContractDefaults(db: Queryable, req: ContractRequestFields, now: Date): Promise<ContractDefaults> {
  const templateId = given(req.templateId);
  const template = templateId === null ? null : await getContractTemplate(db, templateId);
  if (templateId !== null && template === null) throw errors.notFound('contract_template', templateId);
  const mode = req.verificationMode();
  const fields = inheritFromTemplate(
    {
      description: req.description,
      tags: req.tags,
      acceptanceCriteria: req.acceptanceCriteria,
      verificationMode: mode,
      budget: req.budget,
      deadline: req.deadline,
      workProductTemplateId: given(req.workProductTemplateId),
    },
    template,
    now,
  );
  if (fields.deadline === undefined) invalid('deadline', 'deadline is required (or a template_id whose default deadline applies)');
  const wpt = fields.workProductTemplateId;
  if (wpt !== null && !(await getWorkProductTemplate(db, wpt))) throw errors.notFound('work_product_template', wpt);
  const fixtureId = given(req.fixtureId);
  if (fixtureId !== null && !(await getFixture(db, fixtureId))) throw errors.notFound('fixture', fixtureId);
  return { ...fields, deadline: fields.deadline, templateId, fixtureId };
}
