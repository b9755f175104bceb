import { errors, resolveLimit } from '@exchange/platform';
import type pg from 'pg';
import type { Page } from '../data/repo-kit';
import { pageQuery, type PageRequest } from '../service/service-kit';
import { tags as validTags } from '../domain/validation';
import { fixtureFilter } from './fixture';
import * as fixtures from './fixtures.repo';
import type { ContractTemplate, Fixture, FixtureSeller, WorkProductTemplate } from './model';
import { decodeSellerCursor } from './seller-cursor';
import * as templates from './templates.repo';

/** An optional tag filter: absent/empty → none; else it must be a valid tag (400 naming `tag`). */
function tagFilter(tag: string | undefined): string | undefined {
  if (tag === undefined || tag === '') return undefined;
  return validTags([tag], 'tag')[0];
}

/** A catalog list request: an optional tag and the page. */
export interface TagQuery {
  tag?: string;
  page?: PageRequest;
}

/** A fixture list request: the four fixture filters and the page. */
export interface FixtureQuery {
  fixtureId?: string;
  type?: string;
  evidenceTier?: string;
  determinismClass?: string;
  page?: PageRequest;
}

/** The catalog reads: templates (seeded by migration) and the fixtures index. Everything is public. */
export class CatalogService {
  constructor(private readonly pool: pg.Pool) {}

  listContractTemplates(q: TagQuery): Promise<Page<ContractTemplate>> {
    return templates.listContractTemplates(this.pool, tagFilter(q.tag), pageQuery(q.page));
  }

  async getContractTemplate(templateId: string): Promise<ContractTemplate> {
    const t = templateId === '' ? null : await templates.getContractTemplate(this.pool, templateId);
    if (!t) throw errors.notFound('contract_template', templateId || '(empty)');
    return t;
  }

  listWorkProductTemplates(q: TagQuery): Promise<Page<WorkProductTemplate>> {
    return templates.listWorkProductTemplates(this.pool, tagFilter(q.tag), pageQuery(q.page));
  }

  async getWorkProductTemplate(templateId: string): Promise<WorkProductTemplate> {
    const t = templateId === '' ? null : await templates.getWorkProductTemplate(this.pool, templateId);
    if (!t) throw errors.notFound('work_product_template', templateId || '(empty)');
    return t;
  }

  async listFixtures(q: FixtureQuery): Promise<Page<Fixture>> {
    const filter = fixtureFilter(q);
    return fixtures.listFixtures(this.pool, filter, pageQuery(q.page));
  }

  async listFixtureSellers(q: FixtureQuery): Promise<Page<FixtureSeller>> {
    const filter = fixtureFilter(q);
    const limit = resolveLimit(q.page?.limit);
    const after = q.page?.cursor ? decodeSellerCursor(q.page.cursor) : null;
    return fixtures.listFixtureSellers(this.pool, filter, { limit, after });
  }
}
