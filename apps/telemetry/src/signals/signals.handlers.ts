import { unary, type Logger } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import * as map from './signals.mapper';
import { SignalsService } from './signals.service';

/** The TelemetryService RPCs of matching signals: proto in, proto out. */
export function signalsHandlers(r: TelemetryRuntime, logger: Logger): Pick<telemetryV1.TelemetryServiceServer, 'recordMatchingSignal' | 'getMatchingBoosts'> {
  const s = new SignalsService({ pool: r.pool, clock: r.clock, notify: r.notify });
  return {
    recordMatchingSignal: unary(logger, 'RecordMatchingSignal', async (req: telemetryV1.RecordMatchingSignalRequest) => {
      const { signal, duplicate } = await s.record(map.signalInput(req), map.actorOf(req.actor));
      return { signal: map.toProtoSignal(signal), duplicate };
    }),
    getMatchingBoosts: unary(logger, 'GetMatchingBoosts', async (req: telemetryV1.GetMatchingBoostsRequest) => ({
      boosts: await s.boosts(map.boostsInput(req)),
    })),
  };
}
