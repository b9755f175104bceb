import { serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';

/** Environment of the telemetry service, read once by `readConfig` (no process.env elsewhere). */
export const TelemetryConfigSchema = Type.Object({
  ...serviceConfigBase(),
  TELEMETRY_DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** Durable name of the `exchange.>` consumer; tests sharing a NATS server give each process its own. */
  TELEMETRY_EVENTS_DURABLE: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'telemetry-events' }),
});

export type TelemetryConfig = Static<typeof TelemetryConfigSchema>;
