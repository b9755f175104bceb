import { Metadata, status } from '@grpc/grpc-js';
// A test-only dependency on the generated code: the adapter and client are proven against a real
// ts-proto service definition rather than a hand-written one.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { identityV1 } from '@exchange/proto';
import {
  createHealthClient,
  createServiceClient,
  errorInfoFromGrpc,
  type GrpcServerHandle,
  type PromiseClient,
} from '../src';
import { captureLogger, HOSTILE, rejection, SECRET_TEXT, startTestServer, until, type Line } from './grpc-test-server';

describe('gRPC server, unary adapter and client', () => {
  const { lines, logger } = captureLogger();
  let server: ReturnType<typeof startTestServer>;
  let handle: GrpcServerHandle;
  let client: PromiseClient<typeof identityV1.IdentityServiceService>;
  let address: string;

  beforeAll(async () => {
    server = startTestServer(logger);
    handle = await server.handle;
    address = `127.0.0.1:${handle.port}`;
    client = createServiceClient(identityV1.IdentityServiceService, address);
    // Connect the channel first, so a short deadline below is spent in the handler, not on connecting.
    await client.getAgent({ agentId: 'warm-up' });
  });

  afterAll(async () => {
    client.close();
    await handle.shutdown(1000);
  });

  beforeEach(() => server.reset());

  function rpcLines(): Line[] {
    return lines.filter((l) => l.method === 'GetAgent');
  }

  it('should bind an ephemeral port when asked for port 0', () => {
    expect(handle.port).toBeGreaterThan(0);
  });

  it('should return the response and log exactly one line with method, code, duration and request id', async () => {
    const before = rpcLines().length;
    const res = await client.getAgent({ agentId: 'acme:agent:alpha' }, { requestId: 'req-ok-1' });
    expect(res.agent?.agentId).toBe('acme:agent:alpha');
    expect(res.agent?.createdAt).toEqual(new Date('2026-11-21T18:00:00.000Z'));
    const logged = rpcLines().slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'info', method: 'GetAgent', code: status.OK, request_id: 'req-ok-1' });
    expect(typeof logged[0].duration_ms).toBe('number');
  });

  it('should pass request id, trace id, actor and agent id from metadata to the CallContext', async () => {
    await client.getAgent(
      { agentId: 'a' },
      { requestId: 'req-meta', traceId: 'trace-1', actor: 'operator:default', agentId: 'acme:agent:alpha' },
    );
    const ctx = server.seen[server.seen.length - 1];
    expect(ctx.requestId).toBe('req-meta');
    expect(ctx.traceId).toBe('trace-1');
    expect(ctx.actor).toBe('operator:default');
    expect(ctx.agentId).toBe('acme:agent:alpha');
    expect(ctx.metadata).toBeInstanceOf(Metadata);
    expect(ctx.metadata.get('x-actor')).toEqual(['operator:default']);
  });

  it('should make up a request id (and use it as trace id) when the caller sent none', async () => {
    await client.getAgent({ agentId: 'b' });
    const ctx = server.seen[server.seen.length - 1];
    expect(ctx.requestId).toMatch(/^req_[0-9a-f-]{36}$/);
    expect(ctx.traceId).toBe(ctx.requestId);
    expect(ctx.actor).toBeNull();
    expect(ctx.agentId).toBeNull();
  });

  it('should give handlers a child logger bound to the request id', async () => {
    await client.getAgent({ agentId: 'c' }, { requestId: 'req-child' });
    const ctx = server.seen[server.seen.length - 1];
    ctx.logger.info('from handler');
    expect(lines[lines.length - 1]).toMatchObject({ msg: 'from handler', request_id: 'req-child' });
  });

  it('should map a DomainError thrown synchronously to its status and x-error-code trailer', async () => {
    const err = await rejection(client.getAgent({ agentId: 'missing' }, { requestId: 'req-nf' }));
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.metadata.get('x-error-code')).toEqual(['agent_not_found']);
    expect(errorInfoFromGrpc(err)).toEqual({ grpcCode: status.NOT_FOUND, code: 'agent_not_found', message: 'agent missing not found' });
    const logged = rpcLines().filter((l) => l.request_id === 'req-nf');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'info', code: status.NOT_FOUND });
  });

  it('should carry DomainError details as JSON in x-error-details-bin', async () => {
    const err = await rejection(client.getAgent({ agentId: 'frozen' }));
    expect(err.code).toBe(status.FAILED_PRECONDITION);
    expect(errorInfoFromGrpc(err)).toEqual({
      grpcCode: status.FAILED_PRECONDITION,
      code: 'invalid_state',
      message: 'agent is frozen, cannot become frozen',
      details: { current: 'frozen', wanted: 'frozen' },
    });
  });

  it('should carry details that echo hostile input (non-ASCII, RTL digits, emoji, NUL, lone surrogate) and keep serving', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const err = await rejection(client.getAgent({ agentId: 'hostile' }, { requestId: 'req-hostile' }));
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      const info = errorInfoFromGrpc(err);
      // Details travel as UTF-8 JSON in a -bin trailer: the value comes back exactly (JSON escapes
      // the lone surrogate); the status message has it replaced, as grpc-js could not send it.
      expect(info.details).toEqual({ field: 'amount', value: HOSTILE });
      expect(err.metadata.get('x-error-details-bin')[0]).toBeInstanceOf(Buffer);
      expect(info.message).toBe(`amount ${HOSTILE.replace('\ud800', '\ufffd')} is not a decimal`);
      expect(info.code).toMatch(/^[\x20-\x7e]+$/);
      expect(info.code.startsWith('amount_invalid')).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
      // The server still answers.
      await expect(client.getAgent({ agentId: 'after-hostile' })).resolves.toMatchObject({ agent: { agentId: 'after-hostile' } });
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('should answer INTERNAL when a response cannot be encoded, without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const err = await rejection(client.getAgent({ agentId: 'unencodable' }));
      expect(err.code).toBe(status.INTERNAL);
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
      await expect(client.getAgent({ agentId: 'after-unencodable' })).resolves.toMatchObject({ agent: { agentId: 'after-unencodable' } });
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('should mark a replayed stored failure with x-idempotent-replayed, and only that one', async () => {
    const replayed = await rejection(client.getAgent({ agentId: 'replayed' }));
    expect(replayed.metadata.get('x-idempotent-replayed')).toEqual(['true']);
    expect(errorInfoFromGrpc(replayed)).toMatchObject({ code: 'invalid_state', replayed: true });
    const fresh = await rejection(client.getAgent({ agentId: 'frozen' }));
    expect(fresh.metadata.get('x-idempotent-replayed')).toEqual([]);
    expect(errorInfoFromGrpc(fresh).replayed).toBeUndefined();
  });

  it('should turn an unknown error into INTERNAL without leaking its text, and log the stack once', async () => {
    const err = await rejection(client.getAgent({ agentId: 'boom' }, { requestId: 'req-boom' }));
    expect(err.code).toBe(status.INTERNAL);
    expect(err.details).toBe('internal error');
    expect(JSON.stringify({ message: err.message, details: err.details, md: err.metadata.getMap() })).not.toContain('hunter2');
    expect(errorInfoFromGrpc(err)).toEqual({ grpcCode: status.INTERNAL, code: 'internal', message: 'internal error' });
    const logged = rpcLines().filter((l) => l.request_id === 'req-boom');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'error', code: status.INTERNAL });
    expect((logged[0].err as { stack: string }).stack).toContain(SECRET_TEXT);
  });

  it('should fail with DEADLINE_EXCEEDED when the handler outlives the deadline', async () => {
    const call = client.getAgent({ agentId: 'slow' }, { deadlineMs: 250, requestId: 'req-slow' });
    const err = await rejection(call);
    // The server's own deadline is the client's plus transit time; finish the handler only once
    // that has passed too, so the adapter must notice the response went nowhere.
    await new Promise((r) => setTimeout(r, 200));
    server.release();
    expect(err.code).toBe(status.DEADLINE_EXCEEDED);
    expect(errorInfoFromGrpc(err)).toMatchObject({ grpcCode: status.DEADLINE_EXCEEDED, code: 'deadline_exceeded' });
    await until(() => rpcLines().some((l) => l.request_id === 'req-slow'));
    const logged = rpcLines().filter((l) => l.request_id === 'req-slow');
    expect(logged).toHaveLength(1);
    // Whichever the server saw first (its deadline timer or the client's RST_STREAM), the log
    // must not claim the call succeeded.
    expect([status.DEADLINE_EXCEEDED, status.CANCELLED]).toContain(logged[0].code);
  });

  it('should map a refused connection to UNAVAILABLE', async () => {
    const dead = createServiceClient(identityV1.IdentityServiceService, '127.0.0.1:1', { defaultDeadlineMs: 2000 });
    try {
      const err = await rejection(dead.getAgent({ agentId: 'a' }));
      expect([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]).toContain(err.code);
      expect(errorInfoFromGrpc(err).code).toBe(status[err.code].toLowerCase());
    } finally {
      dead.close();
    }
  });

  it('should answer UNIMPLEMENTED for a method the service did not register', async () => {
    const err = await rejection(client.listAgents({ page: undefined, identityLevel: 0, status: 0 }));
    expect(err.code).toBe(status.UNIMPLEMENTED);
  });

  it('should report NOT_SERVING until setServing(), for the server and the named service', async () => {
    const health = createHealthClient(address);
    try {
      handle.setNotServing();
      expect(await health.check()).toBe('NOT_SERVING');
      expect(await health.check('exchange.identity.v1.IdentityService')).toBe('NOT_SERVING');
      handle.setServing();
      expect(await health.check()).toBe('SERVING');
      expect(await health.check('exchange.identity.v1.IdentityService')).toBe('SERVING');
      handle.setNotServing();
      expect(await health.check()).toBe('NOT_SERVING');
      const err = await rejection(health.check('some.other.Service'));
      expect(err.code).toBe(status.NOT_FOUND);
    } finally {
      health.close();
    }
  });
});
