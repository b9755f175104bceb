import type { Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { pendingUnary } from '../grpc/pending';

// Placeholder until the area is written.
export function reportsHandlers(_r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'getWeeklyReport' | 'getMarketIntegrityRollup' | 'getBytesToAtomsRollup' | 'getCoordinationRollup'> {
  return {
    getWeeklyReport: pendingUnary(logger, 'GetWeeklyReport'),
    getMarketIntegrityRollup: pendingUnary(logger, 'GetMarketIntegrityRollup'),
    getBytesToAtomsRollup: pendingUnary(logger, 'GetBytesToAtomsRollup'),
    getCoordinationRollup: pendingUnary(logger, 'GetCoordinationRollup'),
  };
}
