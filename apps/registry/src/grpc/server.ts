import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { startGrpcServer, type GrpcServerHandle, type Logger } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';

export const REGISTRY_SERVICE_NAME = 'exchange.registry.v1.RegistryService';

/** Casefile archives travel in unary messages: registry server and its clients accept 64 MiB. */
export const REGISTRY_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Binds the registry gRPC server with grpc.health.v1 (NOT_SERVING until `setServing()`). */
export function startRegistryGrpcServer(opts: {
  handlers: registryV1.RegistryServiceServer;
  logger: Logger;
  host: string;
  port: number;
}): Promise<GrpcServerHandle> {
  return startGrpcServer({
    name: REGISTRY_SERVICE_NAME,
    host: opts.host,
    port: opts.port,
    logger: opts.logger,
    maxMessageBytes: REGISTRY_MAX_MESSAGE_BYTES,
    register: (server) => server.addService(registryV1.RegistryServiceService, opts.handlers as unknown as UntypedServiceImplementation),
  });
}
