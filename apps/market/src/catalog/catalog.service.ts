import { errors, resolveLimit } from '@exchange/platform';
import type { commonV1, marketV1Catalog } from '@exchange/proto';
import type pg from 'pg';
import { pageQuery } from '../service/service-kit';
import { tags as validTags } from '../domain/validation';
import { toProtoContractTemplate, toProtoFixture, toProtoFixtureSeller, toProtoWorkProductTemplate } from './catalog.mapper';
import { fixtureFilter } from './fixture';
import * as fixtures from './fixtures.repo';
import { decodeSellerCursor } from './seller-cursor';
import * as templates from './templates.repo';


/** An optional tag filter: absent/empty → none; else it must be a valid tag (400 naming `tag`). */
function tagFilter(tag: string | undefined): string | undefined {
  if (tag === undefined || tag === '') return undefined;
  return validTags([tag], 'tag')[0];
}

const pageInfo = (nextCursor: string | null): commonV1.PageInfo => ({ nextCursor: nextCursor ?? '' });

/** The catalog reads: templates (seeded by migration) and the fixtures index. Everything is public. */
export class CatalogService {
  constructor(private readonly pool: pg.Pool) {}

  async listContractTemplates(req: marketV1Catalog.ListContractTemplatesRequest): Promise<marketV1Catalog.ListContractTemplatesResponse> {
    const page = await templates.listContractTemplates(this.pool, tagFilter(req.tag), pageQuery(req.page));
    return { templates: page.data.map(toProtoContractTemplate), page: pageInfo(page.nextCursor) };
  }

  async getContractTemplate(req: marketV1Catalog.GetContractTemplateRequest): Promise<marketV1Catalog.GetContractTemplateResponse> {
    const t = req.templateId === '' ? null : await templates.getContractTemplate(this.pool, req.templateId);
    if (!t) throw errors.notFound('contract_template', req.templateId || '(empty)');
    return { template: toProtoContractTemplate(t) };
  }

  async listWorkProductTemplates(req: marketV1Catalog.ListWorkProductTemplatesRequest): Promise<marketV1Catalog.ListWorkProductTemplatesResponse> {
    const page = await templates.listWorkProductTemplates(this.pool, tagFilter(req.tag), pageQuery(req.page));
    return { templates: page.data.map(toProtoWorkProductTemplate), page: pageInfo(page.nextCursor) };
  }

  async getWorkProductTemplate(req: marketV1Catalog.GetWorkProductTemplateRequest): Promise<marketV1Catalog.GetWorkProductTemplateResponse> {
    const t = req.templateId === '' ? null : await templates.getWorkProductTemplate(this.pool, req.templateId);
    if (!t) throw errors.notFound('work_product_template', req.templateId || '(empty)');
    return { template: toProtoWorkProductTemplate(t) };
  }

  async listFixtures(req: marketV1Catalog.ListFixturesRequest): Promise<marketV1Catalog.ListFixturesResponse> {
    const filter = fixtureFilter(req);
    const page = await fixtures.listFixtures(this.pool, filter, pageQuery(req.page));
    return { fixtures: page.data.map(toProtoFixture), page: pageInfo(page.nextCursor) };
  }

  async listFixtureSellers(req: marketV1Catalog.ListFixtureSellersRequest): Promise<marketV1Catalog.ListFixtureSellersResponse> {
    const filter = fixtureFilter(req);
    const limit = resolveLimit(req.page?.limit);
    const after = req.page?.cursor ? decodeSellerCursor(req.page.cursor) : null;
    const page = await fixtures.listFixtureSellers(this.pool, filter, { limit, after });
    return { sellers: page.data.map(toProtoFixtureSeller), page: pageInfo(page.nextCursor) };
  }
}
