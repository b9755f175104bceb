import { status } from '@grpc/grpc-js';
// A test-only dependency on the generated code: the adapter and client are proven against a real
// ts-proto service definition rather than a hand-written one.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { identityV1 } from '@exchange/proto';
import { createHealthClient, createServiceClient, startGrpcServer } from '../src';
import { captureLogger, rejection, startTestServer } from './grpc-test-server';

describe('startGrpcServer health at start', () => {
  it('should start NOT_SERVING', async () => {
    const { logger } = captureLogger();
    const handle = await startGrpcServer({ name: 'svc', host: '127.0.0.1', port: 0, logger, register: () => undefined });
    const health = createHealthClient(`127.0.0.1:${handle.port}`);
    try {
      expect(await health.check('')).toBe('NOT_SERVING');
      expect(await health.check('svc')).toBe('NOT_SERVING');
    } finally {
      health.close();
      await handle.shutdown(1000);
    }
  });
});

describe('GrpcServerHandle.shutdown', () => {
  it('should let an in-flight call finish before resolving, then refuse new calls', async () => {
    const { logger } = captureLogger();
    const server = startTestServer(logger);
    const handle = await server.handle;
    const client = createServiceClient(identityV1.IdentityServiceService, `127.0.0.1:${handle.port}`);
    try {
      const inFlight = client.getAgent({ agentId: 'slow' }, { deadlineMs: 30_000 });
      await server.entered();
      let stopped = false;
      const stopping = handle.shutdown(30_000).then(() => (stopped = true));
      // Let the event loop turn: the server must still be waiting for the in-flight call.
      for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
      expect(stopped).toBe(false);
      server.release();
      expect((await inFlight).agent?.agentId).toBe('slow');
      await stopping;
      expect(stopped).toBe(true);
      const err = await rejection(client.getAgent({ agentId: 'after' }, { deadlineMs: 2000 }));
      expect([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]).toContain(err.code);
    } finally {
      client.close();
    }
  });
});
