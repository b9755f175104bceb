import { errors } from '@exchange/platform';
import { workflowsV1 } from '@exchange/proto';
import { captureLogs, startProtoFake, type ProtoFake } from '@exchange/testing';
import { connect, type Socket } from 'node:net';
import { OPERATOR_TOKEN, startHarness, type Harness } from './harness';

// While the gateway closes, a request still arriving on a kept-alive connection gets a
// problem+json 503 and `Connection: close` (app.ts; Fastify's own answer would be plain JSON),
// logged as a deliberate refusal (info, no stack), while the request already in flight finishes.

/** `promise`, or a failure naming what did not happen within 10 s (before jest's own timeout, so `finally` still cleans up). */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within 10 s`)), 10_000)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

it('should answer a request arriving while the gateway closes with 503 problem+json and close, finishing the one in flight', async () => {
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const { lines, logger } = captureLogs('gateway');
  let workflows: ProtoFake | undefined;
  let h: Harness | undefined;
  let socket: Socket | undefined;
  try {
    workflows = await startProtoFake(workflowsV1.WorkflowsServiceService, {
      getRun: async () => {
        arrived();
        await held;
        throw errors.notFound('workflow_run', 'wfr_held');
      },
    });
    h = await startHarness({ workflows, logger });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const client = connect((h.app.server.address() as { port: number }).port, '127.0.0.1');
    socket = client;
    let answers = '';
    client.on('data', (chunk) => (answers += chunk.toString('utf8')));
    const closedSocket = new Promise((resolve) => client.on('close', resolve));
    const get = (path: string, requestId: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR_TOKEN}\r\nX-Request-Id: ${requestId}\r\n\r\n`;

    client.write(get('/v1/workflows/runs/wfr_held', 'in-flight'));
    await within(inFlight, 'the first request reaching the service');
    const closing = h.app.close();
    // preClose has run once close() yields: the next request is one arriving while closing.
    await new Promise((resolve) => setImmediate(resolve));
    client.write(get('/v1/agents', 'while-closing'));
    // Let it be read and refused while the first is still held (the answers still go out in order).
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await within(closedSocket, 'the gateway closing the connection');
    await within(closing, 'the gateway closing');

    const [first, second] = answers.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 404 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toContain('content-type: application/problem+json');
    expect(second).toContain('connection: close');
    expect(JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(lines.filter((l) => l.request_id === 'while-closing' && l.msg !== 'request')).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request refused', code: 'service_unavailable' }),
    ]);
    expect(JSON.stringify(lines.filter((l) => l.request_id === 'while-closing'))).not.toContain('stack');
  } finally {
    release();
    // A kept-alive client socket would hold the close for the keep-alive timeout.
    socket?.destroy();
    await h?.close().catch(() => undefined);
    await workflows?.stop();
  }
});
