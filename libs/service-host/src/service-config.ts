import { Type, type Static, type TObject } from 'typebox';

/** host:port of another service (`IDENTITY_GRPC_URL=identity:50051`). */
export const GRPC_ADDRESS_PATTERN = '^[^\\s:/]+:\\d{1,5}$';

/** A `host:port` address of another service's gRPC server. */
export function grpcAddress(description?: string) {
  return Type.String({ pattern: GRPC_ADDRESS_PATTERN, ...(description ? { description } : {}) });
}

/**
 * The variables every service reads, spread first into its own TypeBox config schema:
 * `Type.Object({ ...serviceConfigBase(), MY_VAR: … })`. One definition so the services agree on
 * names, defaults and validation (the launchers and k8s ConfigMaps set them the same way).
 */
export function serviceConfigBase() {
  return {
    GRPC_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 50051 }),
    GRPC_HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
    DATABASE_URL: Type.String({ minLength: 1 }),
    NATS_URL: Type.Optional(Type.String({ minLength: 1 })),
    EXCHANGE_ENV: Type.Union([Type.Literal('sandbox'), Type.Literal('mainnet')], { default: 'sandbox' }),
    LOG_LEVEL: Type.Union(
      [
        Type.Literal('fatal'),
        Type.Literal('error'),
        Type.Literal('warn'),
        Type.Literal('info'),
        Type.Literal('debug'),
        Type.Literal('trace'),
        Type.Literal('silent'),
      ],
      { default: 'info' },
    ),
    /** Published outbox rows older than this are deleted (0: kept for ever); see ServiceHost. */
    OUTBOX_RETENTION_HOURS: Type.Integer({ minimum: 0, maximum: 8760, default: 24 }),
    /**
     * How long the event stream keeps events (JetStream max_age of EXCHANGE; 0: for ever), and so
     * how long consumers keep their processed-event records; see ServiceHost. One value for all.
     */
    EVENTS_RETENTION_HOURS: Type.Integer({ minimum: 0, maximum: 8760, default: 168 }),
  };
}

/** A retention in hours (OUTBOX_RETENTION_HOURS, EVENTS_RETENTION_HOURS) as milliseconds; undefined when missing from a hand-built config (NaN). */
export function hoursToMs(hours: number): number | undefined {
  return Number.isFinite(hours) && hours >= 0 ? hours * 3_600_000 : undefined;
}

/** What the host reads from a service's configuration. */
export type ServiceBaseConfig = Static<TObject<ReturnType<typeof serviceConfigBase>>>;
