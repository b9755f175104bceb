import type { Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { pendingUnary, pendingStream } from '../grpc/pending';

// Placeholder until the area is written.
export function feedsHandlers(_r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'listPublicEvents' | 'listOperatorEvents' | 'exportOperatorEvents'> {
  return {
    listPublicEvents: pendingUnary(logger, 'ListPublicEvents'),
    listOperatorEvents: pendingUnary(logger, 'ListOperatorEvents'),
    exportOperatorEvents: pendingStream(),
  };
}
