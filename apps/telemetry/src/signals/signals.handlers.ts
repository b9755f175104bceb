import type { Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { pendingUnary } from '../grpc/pending';

// Placeholder until the area is written.
export function signalsHandlers(_r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'recordMatchingSignal' | 'getMatchingBoosts'> {
  return {
    recordMatchingSignal: pendingUnary(logger, 'RecordMatchingSignal'),
    getMatchingBoosts: pendingUnary(logger, 'GetMatchingBoosts'),
  };
}
