import { Server, ServerCredentials } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { captureUnaryMethods, serveInProcess, stopServingInProcess } from './grpc/in-process';
import type { Logger } from './logger';

export interface GrpcServerHandle {
  port: number;
  server: Server;
  /** Marks '' and the service name SERVING (call once dependencies are connected). */
  setServing(): void;
  setNotServing(): void;
  /** NOT_SERVING, then drains in-flight calls for up to `graceMs` before forcing. */
  shutdown(graceMs?: number): Promise<void>;
}

const SERVER_OPTIONS = {
  // Ping idle clients so dead peers are noticed; clients ping every 30 s (see grpc-client.ts).
  'grpc.keepalive_time_ms': 60_000,
  'grpc.keepalive_timeout_ms': 20_000,
  'grpc.keepalive_permit_without_calls': 1,
  // Nothing reads channelz, and it keeps per-call bookkeeping (counters, timestamps) on every call.
  'grpc.enable_channelz': 0,
};

/**
 * Starts a gRPC server with grpc.health.v1. Health for '' (whole server) and `name` starts
 * NOT_SERVING, so readiness probes fail until `setServing()`. Port 0 binds an ephemeral port.
 */
export async function startGrpcServer(opts: {
  name: string;
  host?: string;
  port: number;
  logger: Logger;
  register: (server: Server) => void;
  /** Largest message either way (default: gRPC's 4 MiB receive limit); registry archives need more. */
  maxMessageBytes?: number;
}): Promise<GrpcServerHandle> {
  const { name, logger } = opts;
  const limits = { maxReceiveBytes: opts.maxMessageBytes, maxSendBytes: opts.maxMessageBytes };
  const server = new Server({
    ...SERVER_OPTIONS,
    ...(opts.maxMessageBytes === undefined
      ? {}
      : { 'grpc.max_receive_message_length': limits.maxReceiveBytes, 'grpc.max_send_message_length': limits.maxSendBytes }),
  });
  // Recorded for in-process calls (all-in-one only; grpc/in-process.ts), health included.
  const local = captureUnaryMethods(server, limits);
  const health = new HealthImplementation({ '': 'NOT_SERVING', [name]: 'NOT_SERVING' });
  health.addToServer(server);
  opts.register(server);

  const host = opts.host ?? '0.0.0.0';
  const address = `${host}:${opts.port}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (err, boundPort) =>
      err ? reject(err) : resolve(boundPort),
    );
  });
  logger.info({ service: name, port }, 'grpc server listening');
  serveInProcess(host, port, local);

  const setStatus = (value: 'SERVING' | 'NOT_SERVING') => {
    health.setStatus('', value);
    health.setStatus(name, value);
    logger.info({ service: name, health: value }, 'grpc health changed');
  };

  let closing: Promise<void> | undefined;
  const shutdown = (graceMs = 10_000): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      setStatus('NOT_SERVING');
      stopServingInProcess(port, local);
      let forced = false;
      const force = setTimeout(() => {
        forced = true;
        logger.warn({ service: name, grace_ms: graceMs }, 'grpc drain timed out, forcing shutdown');
        server.forceShutdown();
        resolve();
      }, graceMs);
      // In-process calls (all-in-one) are drained like gRPC's: both must finish within the grace.
      const drained = new Promise<void>((done) => server.tryShutdown(() => done()));
      void Promise.all([drained, local.drained()]).then(() => {
        if (forced) return;
        clearTimeout(force);
        logger.info({ service: name }, 'grpc server stopped');
        resolve();
      });
    });
    return closing;
  };

  return {
    port,
    server,
    setServing: () => setStatus('SERVING'),
    setNotServing: () => setStatus('NOT_SERVING'),
    shutdown,
  };
}
