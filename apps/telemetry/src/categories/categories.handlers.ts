import type { Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { pendingUnary } from '../grpc/pending';

// Placeholder until the area is written.
export function categoriesHandlers(_r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'listCategories' | 'listCategoryObjects'> {
  return {
    listCategories: pendingUnary(logger, 'ListCategories'),
    listCategoryObjects: pendingUnary(logger, 'ListCategoryObjects'),
  };
}
