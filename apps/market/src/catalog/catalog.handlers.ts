import { unary } from '@exchange/platform';
import type { commonV1, marketV1Catalog } from '@exchange/proto';
import type { MarketRuntime } from '../service/runtime';
import { toProtoContractTemplate, toProtoFixture, toProtoFixtureSeller, toProtoWorkProductTemplate } from './catalog.mapper';
import type { CatalogService } from './catalog.service';

const pageInfo = (nextCursor: string | null): commonV1.PageInfo => ({ nextCursor: nextCursor ?? '' });

/** proto in, proto out: the rules live in CatalogService (domain in, domain out); errors and logging in platform's `unary`. */
export function catalogHandlers(s: CatalogService, deps: Pick<MarketRuntime, 'logger'>): marketV1Catalog.MarketCatalogServiceServer {
  const logger = deps.logger;
  return {
    listContractTemplates: unary(logger, 'ListContractTemplates', async (req: marketV1Catalog.ListContractTemplatesRequest) => {
      const page = await s.listContractTemplates(req);
      return { templates: page.data.map(toProtoContractTemplate), page: pageInfo(page.nextCursor) };
    }),
    getContractTemplate: unary(logger, 'GetContractTemplate', async (req: marketV1Catalog.GetContractTemplateRequest) => ({
      template: toProtoContractTemplate(await s.getContractTemplate(req.templateId)),
    })),
    listWorkProductTemplates: unary(logger, 'ListWorkProductTemplates', async (req: marketV1Catalog.ListWorkProductTemplatesRequest) => {
      const page = await s.listWorkProductTemplates(req);
      return { templates: page.data.map(toProtoWorkProductTemplate), page: pageInfo(page.nextCursor) };
    }),
    getWorkProductTemplate: unary(logger, 'GetWorkProductTemplate', async (req: marketV1Catalog.GetWorkProductTemplateRequest) => ({
      template: toProtoWorkProductTemplate(await s.getWorkProductTemplate(req.templateId)),
    })),
    listFixtures: unary(logger, 'ListFixtures', async (req: marketV1Catalog.ListFixturesRequest) => {
      const page = await s.listFixtures(req);
      return { fixtures: page.data.map(toProtoFixture), page: pageInfo(page.nextCursor) };
    }),
    listFixtureSellers: unary(logger, 'ListFixtureSellers', async (req: marketV1Catalog.ListFixtureSellersRequest) => {
      const page = await s.listFixtureSellers(req);
      return { sellers: page.data.map(toProtoFixtureSeller), page: pageInfo(page.nextCursor) };
    }),
  };
}
