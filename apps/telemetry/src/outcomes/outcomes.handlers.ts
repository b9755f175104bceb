import type { Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { pendingUnary } from '../grpc/pending';

// Placeholder until the area is written.
export function outcomesHandlers(_r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'getOutcomeMetrics'> {
  return {
    getOutcomeMetrics: pendingUnary(logger, 'GetOutcomeMetrics'),
  };
}
