import type { Server } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
import { mergeAreaHandlers, serviceArea } from '@exchange/service-host';
import { telemetryV1 } from '@exchange/proto';
import type { TelemetryRuntime } from '../service/runtime';
import { signalsHandlers } from '../signals/signals.handlers';
import { categoriesHandlers } from '../categories/categories.handlers';
import { feedsHandlers } from '../feeds/feeds.handlers';
import { timelinesHandlers } from '../timelines/timelines.handlers';
import { reportsHandlers } from '../reports/reports.handlers';
import { outcomesHandlers } from '../outcomes/outcomes.handlers';

export const TELEMETRY_SERVICE_NAME = 'exchange.telemetry.v1.TelemetryService';

// Every area of telemetry, one entry each; their handlers together make TelemetryService. Each
// area's handlers build that area's service from the runtime (taking only what it uses). Adding an
// area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  serviceArea('signals', (r: TelemetryRuntime, logger: Logger) => signalsHandlers(r, logger)),
  serviceArea('categories', (r: TelemetryRuntime, logger: Logger) => categoriesHandlers(r, logger)),
  serviceArea('feeds', (r: TelemetryRuntime, logger: Logger) => feedsHandlers(r, logger)),
  serviceArea('timelines', (r: TelemetryRuntime, logger: Logger) => timelinesHandlers(r, logger)),
  serviceArea('reports', (r: TelemetryRuntime, logger: Logger) => reportsHandlers(r, logger)),
  serviceArea('outcomes', (r: TelemetryRuntime, logger: Logger) => outcomesHandlers(r, logger)),
] as const;

/** TelemetryService's handlers: every area's, merged. */
export function telemetryHandlers(r: TelemetryRuntime, logger: Logger): telemetryV1.TelemetryServiceServer {
  // Typed as the generated server: an RPC no area handles does not compile.
  return mergeAreaHandlers(AREAS, r, logger);
}

/** Adds TelemetryService to the server libs/service-host starts (health is already there). */
export function registerTelemetry(server: Server, r: TelemetryRuntime, logger: Logger): void {
  server.addService(telemetryV1.TelemetryServiceService, telemetryHandlers(r, logger));
}
