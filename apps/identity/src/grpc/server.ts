import { startGrpcServer, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import type { AgentService } from '../domain/agent.service';
import type { AliasService } from '../domain/alias.service';
import { identityHandlers } from './identity.handlers';

export const IDENTITY_SERVICE_NAME = 'exchange.identity.v1.IdentityService';

/** Binds the identity gRPC server; health starts NOT_SERVING until the caller flips it. */
export function startIdentityGrpcServer(opts: {
  service: AgentService;
  aliases: AliasService;
  logger: Logger;
  host: string;
  port: number;
}): Promise<GrpcServerHandle> {
  return startGrpcServer({
    name: IDENTITY_SERVICE_NAME,
    host: opts.host,
    port: opts.port,
    logger: opts.logger,
    register: (server) => server.addService(identityV1.IdentityServiceService, identityHandlers(opts.service, opts.aliases, opts.logger)),
  });
}
