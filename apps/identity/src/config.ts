import { serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';

/** Environment of the identity service, read once by `readConfig` (no process.env elsewhere). */
export const IdentityConfigSchema = Type.Object({
  ...serviceConfigBase(),
  /** Registry gRPC address (host:port), used only when minting alias tokens and reveals. */
  REGISTRY_GRPC_URL: Type.Optional(Type.String({ minLength: 1 })),
});

export type IdentityConfig = Static<typeof IdentityConfigSchema>;
