import { unary, type Logger } from '@exchange/platform';
import type { marketV1Catalog } from '@exchange/proto';
import type { CatalogService } from '../catalog/catalog.service';

/** proto in, proto out: the rules live in CatalogService; errors and logging in platform's `unary`. */
export function catalogHandlers(s: CatalogService, logger: Logger): marketV1Catalog.MarketCatalogServiceServer {
  return {
    listContractTemplates: unary(logger, 'ListContractTemplates', (req: marketV1Catalog.ListContractTemplatesRequest) => s.listContractTemplates(req)),
    getContractTemplate: unary(logger, 'GetContractTemplate', (req: marketV1Catalog.GetContractTemplateRequest) => s.getContractTemplate(req)),
    listWorkProductTemplates: unary(logger, 'ListWorkProductTemplates', (req: marketV1Catalog.ListWorkProductTemplatesRequest) =>
      s.listWorkProductTemplates(req),
    ),
    getWorkProductTemplate: unary(logger, 'GetWorkProductTemplate', (req: marketV1Catalog.GetWorkProductTemplateRequest) => s.getWorkProductTemplate(req)),
    listFixtures: unary(logger, 'ListFixtures', (req: marketV1Catalog.ListFixturesRequest) => s.listFixtures(req)),
    listFixtureSellers: unary(logger, 'ListFixtureSellers', (req: marketV1Catalog.ListFixtureSellersRequest) => s.listFixtureSellers(req)),
  };
}
