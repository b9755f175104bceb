import { Type, type Static } from 'typebox';

/** Environment of the identity service, read once by `readConfig` (no process.env elsewhere). */
export const IdentityConfigSchema = Type.Object({
  GRPC_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 50051 }),
  GRPC_HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: Type.String({ minLength: 1 }),
  NATS_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** Registry gRPC address (host:port), used only when minting alias tokens and reveals. */
  REGISTRY_GRPC_URL: Type.Optional(Type.String({ minLength: 1 })),
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
});

export type IdentityConfig = Static<typeof IdentityConfigSchema>;
