import type { Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { pendingUnary, pendingStream } from '../grpc/pending';

// Placeholder until the area is written.
export function timelinesHandlers(_r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'getContractTimeline' | 'exportContractTimeline'> {
  return {
    getContractTimeline: pendingUnary(logger, 'GetContractTimeline'),
    exportContractTimeline: pendingStream(),
  };
}
