import { errors } from '@exchange/platform';
import { workflowsV1 } from '@exchange/proto';
import { captureLogs, startProtoFake } from '@exchange/testing';
import { connect } from 'node:net';
import { OPERATOR_TOKEN, startHarness } from './harness';

// While the gateway closes, a request still arriving on a kept-alive connection gets a
// problem+json 503 and `Connection: close` (app.ts; Fastify's own answer would be plain JSON),
// logged as a deliberate refusal (info, no stack), while the request already in flight finishes.

it('should answer a request arriving while the gateway closes with 503 problem+json and close, finishing the one in flight', async () => {
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const workflows = await startProtoFake(workflowsV1.WorkflowsServiceService, {
    getRun: async () => {
      arrived();
      await held;
      throw errors.notFound('workflow_run', 'wfr_held');
    },
  });
  const { lines, logger } = captureLogs('gateway');
  const h = await startHarness({ workflows, logger });
  try {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect((h.app.server.address() as { port: number }).port, '127.0.0.1');
    let answers = '';
    socket.on('data', (chunk) => (answers += chunk.toString('utf8')));
    const closedSocket = new Promise((resolve) => socket.on('close', resolve));
    const get = (path: string, requestId: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR_TOKEN}\r\nX-Request-Id: ${requestId}\r\n\r\n`;

    socket.write(get('/v1/workflows/runs/wfr_held', 'in-flight'));
    await inFlight;
    const closing = h.app.close();
    // preClose has run once close() yields: the next request is one arriving while closing.
    await new Promise((resolve) => setImmediate(resolve));
    socket.write(get('/v1/agents', 'while-closing'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await closedSocket;
    await closing;

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
    await h.close().catch(() => undefined);
    await workflows.stop();
  }
});
