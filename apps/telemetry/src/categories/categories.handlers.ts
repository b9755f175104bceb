import { unary, type Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import * as map from './categories.mapper';
import { CategoriesService } from './categories.service';

/** The TelemetryService RPCs of categories: proto in, proto out. */
export function categoriesHandlers(r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'listCategories' | 'listCategoryObjects'> {
  const s = new CategoriesService({ pool: r.pool });
  return {
    listCategories: unary(logger, 'ListCategories', async (req: telemetryV1.ListCategoriesRequest) => {
      const { items, nextCursor } = await s.list(map.readerOf(req.actor), map.pageOf(req.page));
      return { categories: items.map(map.toProtoCategory), page: map.toPageInfo(nextCursor) };
    }),
    listCategoryObjects: unary(logger, 'ListCategoryObjects', async (req: telemetryV1.ListCategoryObjectsRequest) => {
      const { category, items, nextCursor } = await s.objects(map.readerOf(req.actor), req.tag, req.kind, map.pageOf(req.page));
      return { category: map.toProtoCategory(category), objects: items.map(map.toProtoCategoryObject), page: map.toPageInfo(nextCursor) };
    }),
  };
}
