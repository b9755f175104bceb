import { Type } from 'typebox';
import { Nullable, StringEnum, Timestamp } from '../../schemas/common';

export const ServiceHealth = Type.Object(
  { status: StringEnum(['SERVING', 'NOT_SERVING', 'UNKNOWN'] as const), address: Type.String() },
  { additionalProperties: false },
);

export const HealthResponse = Type.Object(
  {
    status: StringEnum(['ok', 'degraded'] as const),
    environment: Type.String(),
    version: Type.String(),
    exchange_public_key: Nullable(Type.String(), { description: 'Base64 ed25519 public key the exchange signs with' }),
    services: Type.Record(Type.String(), ServiceHealth),
    time: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'Gateway and backing-service health (200 when all SERVING, else 503 with the same body)',
    examples: [
      {
        status: 'ok',
        environment: 'sandbox',
        version: '0.1.0',
        exchange_public_key: 'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=',
        services: { identity: { status: 'SERVING', address: '127.0.0.1:50051' } },
        time: '2026-11-21T18:00:00.000Z',
      },
    ],
  },
);
