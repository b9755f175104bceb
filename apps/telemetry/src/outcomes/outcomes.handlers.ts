import { unary, type Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import * as map from './outcomes.mapper';
import { OutcomesService } from './outcomes.service';

/** The TelemetryService RPC of outcome metrics (agents and the operator): proto in, proto out. */
export function outcomesHandlers(r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'getOutcomeMetrics'> {
  const s = new OutcomesService({ pool: r.pool, clock: r.clock });
  return {
    getOutcomeMetrics: unary(logger, 'GetOutcomeMetrics', async (req: telemetryV1.GetOutcomeMetricsRequest) => ({
      metrics: map.toProtoOutcomes(await s.metrics(map.outcomesRequest(req))),
    })),
  };
}
