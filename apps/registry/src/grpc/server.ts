import { Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { GrpcServerHandle, Logger } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';

export const REGISTRY_SERVICE_NAME = 'exchange.registry.v1.RegistryService';

/** Casefile archives travel in unary messages: registry server and its clients accept 64 MiB. */
export const REGISTRY_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const SERVER_OPTIONS = {
  'grpc.keepalive_time_ms': 60_000,
  'grpc.keepalive_timeout_ms': 20_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.max_receive_message_length': REGISTRY_MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': REGISTRY_MAX_MESSAGE_BYTES,
};

/**
 * Binds the registry gRPC server with grpc.health.v1 (NOT_SERVING until `setServing()`). Same
 * behaviour as platform's startGrpcServer, plus the 64 MiB message limits that one does not take.
 */
export async function startRegistryGrpcServer(opts: {
  handlers: registryV1.RegistryServiceServer;
  logger: Logger;
  host: string;
  port: number;
}): Promise<GrpcServerHandle> {
  const { logger } = opts;
  const name = REGISTRY_SERVICE_NAME;
  const server = new Server(SERVER_OPTIONS);
  const health = new HealthImplementation({ '': 'NOT_SERVING', [name]: 'NOT_SERVING' });
  health.addToServer(server);
  server.addService(registryV1.RegistryServiceService, opts.handlers as unknown as UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${opts.host}:${opts.port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
  logger.info({ service: name, port }, 'grpc server listening');
  const setStatus = (value: 'SERVING' | 'NOT_SERVING') => {
    health.setStatus('', value);
    health.setStatus(name, value);
    logger.info({ service: name, health: value }, 'grpc health changed');
  };
  let closing: Promise<void> | undefined;
  const shutdown = (graceMs = 10_000): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      setStatus('NOT_SERVING');
      const force = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, graceMs);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
    return closing;
  };
  return { port, server, setServing: () => setStatus('SERVING'), setNotServing: () => setStatus('NOT_SERVING'), shutdown };
}
