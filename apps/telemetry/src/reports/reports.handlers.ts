import { unary, type Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import * as map from './reports.mapper';
import { ReportsService, type RollupRequest } from './reports.service';

function rollupRequest(req: { actor?: telemetryV1.Actor; query?: telemetryV1.RollupQuery }): RollupRequest {
  return { actor: map.actorOf(req.actor), window: req.query?.window, asOf: req.query?.asOf };
}

/** The TelemetryService RPCs of the weekly report and the rollups (operator only): proto in, proto out. */
export function reportsHandlers(
  r: TelemetryRuntime,
  logger: Logger,
): Pick<telemetryV1.TelemetryServiceServer, 'getWeeklyReport' | 'getMarketIntegrityRollup' | 'getBytesToAtomsRollup' | 'getCoordinationRollup'> {
  const s = new ReportsService({ pool: r.pool, clock: r.clock });
  return {
    getWeeklyReport: unary(logger, 'GetWeeklyReport', async (req: telemetryV1.GetWeeklyReportRequest) => ({
      report: map.toProtoWeekly(await s.weekly(map.actorOf(req.actor), req.weekStart, req.includeSandbox)),
    })),
    getMarketIntegrityRollup: unary(logger, 'GetMarketIntegrityRollup', async (req: telemetryV1.GetMarketIntegrityRollupRequest) => ({
      rollup: map.toProtoIntegrity(await s.marketIntegrity(rollupRequest(req))),
    })),
    getBytesToAtomsRollup: unary(logger, 'GetBytesToAtomsRollup', async (req: telemetryV1.GetBytesToAtomsRollupRequest) => ({
      rollup: map.toProtoBytesToAtoms(await s.bytesToAtoms(rollupRequest(req))),
    })),
    getCoordinationRollup: unary(logger, 'GetCoordinationRollup', async (req: telemetryV1.GetCoordinationRollupRequest) => ({
      rollup: map.toProtoCoordination(await s.coordination(rollupRequest(req))),
    })),
  };
}
