import { encodeCursor } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import type { Page, PageQuery } from '../data/repo-kit';
import type { ContractTemplate, WorkProductTemplate } from './model';

// Template catalog reads. Both lists are ordered by template_id ascending; the cursor is the
// platform's (created_at|id) cursor of the last row, of which only the id is used (id > cursor id).

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

const toContractTemplate = (r: Row): ContractTemplate => ({
  templateId: r.id,
  name: r.name,
  description: r.description,
  tags: r.tags,
  acceptanceCriteria: r.acceptance_criteria,
  defaultVerificationMode: r.default_verification_mode,
  defaultDeadline: r.default_deadline,
  suggestedBudget: r.suggested_budget_amount === null ? null : { amount: BigInt(r.suggested_budget_amount), currency: r.suggested_budget_currency },
  workProductTemplateId: r.work_product_template_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toWorkProductTemplate = (r: Row): WorkProductTemplate => ({
  templateId: r.id,
  name: r.name,
  description: r.description,
  tags: r.tags,
  payloadSchema: r.payload_schema,
  requiredArtifacts: r.required_artifacts,
  acceptanceCriteria: r.acceptance_criteria,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

async function byIdPage<T>(db: Queryable, table: string, tag: string | undefined, q: PageQuery, map: (r: Row) => T): Promise<Page<T>> {
  const values: unknown[] = [];
  const where: string[] = [];
  if (tag !== undefined) {
    values.push(tag);
    where.push(`$${values.length} = ANY(tags)`);
  }
  if (q.after) {
    values.push(q.after.id);
    where.push(`id > $${values.length}`);
  }
  values.push(q.limit + 1);
  const { rows } = await db.query(
    `SELECT * FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT $${values.length}`,
    values,
  );
  if (rows.length <= q.limit) return { data: rows.map(map), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  const last = kept[kept.length - 1];
  return { data: kept.map(map), nextCursor: encodeCursor({ createdAt: last.created_at, id: last.id }) };
}

export function listContractTemplates(db: Queryable, tag: string | undefined, q: PageQuery): Promise<Page<ContractTemplate>> {
  return byIdPage(db, 'contract_templates', tag, q, toContractTemplate);
}

export function listWorkProductTemplates(db: Queryable, tag: string | undefined, q: PageQuery): Promise<Page<WorkProductTemplate>> {
  return byIdPage(db, 'work_product_templates', tag, q, toWorkProductTemplate);
}

export async function getContractTemplate(db: Queryable, id: string): Promise<ContractTemplate | null> {
  const { rows } = await db.query('SELECT * FROM contract_templates WHERE id = $1', [id]);
  return rows[0] ? toContractTemplate(rows[0]) : null;
}

export async function getWorkProductTemplate(db: Queryable, id: string): Promise<WorkProductTemplate | null> {
  const { rows } = await db.query('SELECT * FROM work_product_templates WHERE id = $1', [id]);
  return rows[0] ? toWorkProductTemplate(rows[0]) : null;
}
