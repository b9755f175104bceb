import { Client, credentials, Metadata, status, type sendUnaryData, type ServerUnaryCall, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import { Writable } from 'node:stream';
import { callUnary, createServiceClient, errorInfoFromGrpc, type PromiseClient } from '../grpc-client';
import { startGrpcServer, type GrpcServerHandle } from '../grpc-server';
import { DomainError } from '../errors';
import { createLogger } from '../logger';
import { unary } from '../unary';
import { LocalServer, localTarget, loopbackTarget, serveInProcess, stopServingInProcess, useInProcessCalls } from './in-process';

// Every outcome a unary call can have, through real gRPC and in process, on the same server and
// client: the in-process path must give what gRPC gives (answers, codes, details, trailers).

interface Msg {
  text?: string;
  /** Makes the request serializer throw (client side). */
  failRequestSerialize?: boolean;
  /** Makes the request deserializer throw (server side). */
  failRequestDeserialize?: boolean;
  /** Makes the response serializer throw (server side). */
  failResponseSerialize?: boolean;
  /** Makes the response deserializer throw (client side). */
  failResponseDeserialize?: boolean;
  pad?: string;
  seenBy?: string;
  requestId?: string;
}

const encode = (flag: keyof Msg) => (value: Msg) => {
  if (value[flag]) throw new Error(`cannot encode (${flag})`);
  return Buffer.from(JSON.stringify(value));
};
const decode = (flag: keyof Msg) => (bytes: Buffer) => {
  const value = JSON.parse(bytes.toString()) as Msg;
  if (value[flag]) throw new Error(`cannot decode (${flag})`);
  return value;
};

const method = (name: string) => ({
  path: `/test.Parity/${name}`,
  requestStream: false,
  responseStream: false,
  requestSerialize: encode('failRequestSerialize'),
  requestDeserialize: decode('failRequestDeserialize'),
  responseSerialize: encode('failResponseSerialize'),
  responseDeserialize: decode('failResponseDeserialize'),
  originalName: name,
});

const definition = {
  echo: method('Echo'),
  domainError: method('DomainError'),
  statusError: method('StatusError'),
  plainError: method('PlainError'),
  throws: method('Throws'),
  never: method('Never'),
  unimplemented: method('Unimplemented'),
  slow: method('Slow'),
  bigReply: method('BigReply'),
  grow: method('Grow'),
  trailerWins: method('TrailerWins'),
  fractionalCode: method('FractionalCode'),
} satisfies ServiceDefinition;

const logger = createLogger({ name: 'in-process-spec', level: 'silent' });
type Call = ServerUnaryCall<Msg, Msg>;
const neverCalls: Call[] = [];
let release: (() => void) | null = null;

const implementation = {
  echo: unary(logger, 'Echo', async (req: Msg, ctx) => ({ ...req, requestId: ctx.requestId })),
  domainError: unary(logger, 'DomainError', async () => {
    throw new DomainError(status.FAILED_PRECONDITION, 'insufficient_funds', 'not enough — ünïcode', { needed: '5.00' });
  }),
  statusError: (_call: Call, cb: sendUnaryData<Msg>) => {
    const metadata = new Metadata();
    metadata.set('x-custom', 'yes');
    metadata.set('x-blob-bin', Buffer.from([0, 1, 2, 255]));
    cb(Object.assign(new Error('ignored message'), { code: status.ABORTED, details: 'aborted details', metadata }), null);
  },
  plainError: (_call: Call, cb: sendUnaryData<Msg>) => cb(new Error('plain failure'), null),
  throws: () => {
    throw new Error('handler threw');
  },
  never: (call: Call) => {
    neverCalls.push(call); // never answers
  },
  grow: (call: Call, cb: sendUnaryData<Msg>) => cb(null, { pad: 'x'.repeat(Number(call.request.text)) }),
  trailerWins: (_call: Call, cb: sendUnaryData<Msg>) => {
    const own = new Metadata();
    own.set('x-from', 'error');
    const trailer = new Metadata();
    trailer.set('x-from', 'trailer');
    cb(Object.assign(new Error('m'), { code: status.NOT_FOUND, details: 'd', metadata: own }), null, trailer);
  },
  fractionalCode: (_call: Call, cb: sendUnaryData<Msg>) => cb(Object.assign(new Error('fractional'), { code: 2.5, details: 'not used' }), null),
  bigReply: (_call: Call, cb: sendUnaryData<Msg>) => cb(null, { pad: 'x'.repeat(4 * 1024 * 1024 + 10) }),
  slow: (_call: Call, cb: sendUnaryData<Msg>) => {
    release = () => cb(null, { text: 'finished' });
  },
};

let releaseInProcess: (() => void) | null = null;
/** In-process calls on or off for the calls that follow (the spec's own switch over useInProcessCalls). */
function setInProcessCalls(on: boolean): void {
  if (on && !releaseInProcess) releaseInProcess = useInProcessCalls();
  if (!on && releaseInProcess) {
    releaseInProcess();
    releaseInProcess = null;
  }
}

type Outcome = { ok: Msg } | { error: string } | { code: number; details: string; trailers: Record<string, unknown> };

let server: GrpcServerHandle;
let client: PromiseClient<typeof definition>;

beforeAll(async () => {
  server = await startGrpcServer({ name: 'parity', host: '127.0.0.1', port: 0, logger, register: (s) => s.addService(definition, implementation) });
  client = createServiceClient(definition, `127.0.0.1:${server.port}`);
});

afterAll(async () => {
  setInProcessCalls(false);
  client.close();
  await server.shutdown(1000);
});

afterEach(() => setInProcessCalls(false));

function trailersOf(metadata: Metadata): Record<string, unknown> {
  const map = metadata.getMap();
  // Transport headers gRPC adds on the wire; not part of what the handler answered.
  for (const key of ['content-type', 'date']) delete map[key];
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('base64') : v]));
}

async function outcome(inProcess: boolean, call: () => Promise<Msg>): Promise<Outcome> {
  setInProcessCalls(inProcess);
  try {
    return { ok: await call() };
  } catch (err) {
    const e = err as ServiceError;
    if (typeof e.code !== 'number') return { error: e.message }; // refused before any call (a closed client)
    expect(e.message).toBe(`${e.code} ${status[e.code]}: ${e.details}`);
    // The elapsed time and the peer's address differ by nature.
    const details = e.details.replace(/^Deadline exceeded after \d+\.\d{3}s,(.*,)?remote_addr=\S+$/, 'Deadline exceeded after <elapsed>,remote_addr=<peer>');
    return { code: e.code, details, trailers: trailersOf(e.metadata) };
  }
}

/** The outcome through gRPC and in process: they must be equal; returns it. */
async function same(call: () => Promise<Msg>): Promise<Outcome> {
  const viaGrpc = await outcome(false, call);
  const inProcess = await outcome(true, call);
  expect(inProcess).toEqual(viaGrpc);
  return inProcess;
}

describe('in-process unary calls give what gRPC gives', () => {
  it('answers with a decoded copy of the request and passes the metadata', async () => {
    expect(await same(() => client.echo({ text: 'héllo\u0000' }, { requestId: 'req_parity' }))).toEqual({
      ok: { text: 'héllo\u0000', requestId: 'req_parity' },
    });
  });

  it('passes a DomainError with its code, message and details trailers', async () => {
    const result = await same(() => client.domainError({}));
    expect(result).toMatchObject({ code: status.FAILED_PRECONDITION, trailers: { 'x-error-code': 'insufficient_funds' } });
    setInProcessCalls(true);
    const err = await client.domainError({}).catch((e: unknown) => e);
    expect(errorInfoFromGrpc(err)).toEqual({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds', message: 'not enough — ünïcode', details: { needed: '5.00' } });
  });

  it('passes a status error with its own details and trailers (text and binary)', async () => {
    expect(await same(() => client.statusError({}))).toEqual({ code: status.ABORTED, details: 'aborted details', trailers: { 'x-custom': 'yes', 'x-blob-bin': 'AAEC/w==' } });
  });

  it('maps an error without a code to UNKNOWN with its message', async () => {
    expect(await same(() => client.plainError({}))).toEqual({ code: status.UNKNOWN, details: 'plain failure', trailers: {} });
  });

  it('answers a handler that throws with UNKNOWN', async () => {
    expect(await same(() => client.throws({}))).toEqual({ code: status.UNKNOWN, details: 'Unknown error', trailers: {} });
  });

  it('answers a method the server does not implement with UNIMPLEMENTED', async () => {
    expect(await same(() => client.unimplemented({}))).toMatchObject({ code: status.UNIMPLEMENTED });
  });

  it.each([
    ['request serializer', { failRequestSerialize: true }, status.INTERNAL],
    ['request deserializer', { failRequestDeserialize: true }, status.INTERNAL],
    ['response serializer', { failResponseSerialize: true }, status.INTERNAL],
    ['response deserializer', { failResponseDeserialize: true }, status.INTERNAL],
  ])('fails like gRPC when the %s throws', async (_name, request, code) => {
    expect(await same(() => client.echo(request))).toMatchObject({ code });
  });

  it('refuses a request over the server receive limit and a response over the client receive limit', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024 + 10);
    expect(await same(() => client.echo({ pad: big }))).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    expect(await same(() => client.bigReply({}))).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
  });

  it('sends the trailer argument over the metadata of the error, and UNKNOWN with the message for a code that is not an integer', async () => {
    expect(await same(() => client.trailerWins({}))).toEqual({ code: status.NOT_FOUND, details: 'd', trailers: { 'x-from': 'trailer' } });
    expect(await same(() => client.fractionalCode({}))).toEqual({ code: status.UNKNOWN, details: 'fractional', trailers: {} });
  });

  it('fails a call whose deadline has already passed without running its handler in process', async () => {
    const expired = { code: status.DEADLINE_EXCEEDED, details: 'Deadline exceeded after <elapsed>,remote_addr=<peer>', trailers: {} };
    expect(await outcome(false, () => client.never({}, { deadlineMs: 0 }))).toEqual(expired);
    // Over gRPC the stream may still reach the server afterwards (its handler then sees it cancelled).
    await new Promise((resolve) => setTimeout(resolve, 100));
    neverCalls.length = 0;
    expect(await outcome(true, () => client.never({}, { deadlineMs: 0 }))).toEqual(expired);
    expect(neverCalls).toHaveLength(0);
  });

  it('rejects (never throws) when the metadata cannot be made', async () => {
    for (const on of [false, true]) {
      setInProcessCalls(on);
      let pending: Promise<unknown> | undefined;
      expect(() => (pending = client.echo({}, { requestId: 'é' }))).not.toThrow();
      await expect(pending).rejects.toThrow(/illegal characters/);
    }
  });

  it('ends a call at its deadline with DEADLINE_EXCEEDED and marks the server call cancelled', async () => {
    neverCalls.length = 0;
    expect(await same(() => client.never({}, { deadlineMs: 100 }))).toEqual({ code: status.DEADLINE_EXCEEDED, details: 'Deadline exceeded after <elapsed>,remote_addr=<peer>', trailers: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(neverCalls).toHaveLength(2);
    expect(neverCalls.map((c) => c.cancelled)).toEqual([true, true]);
  });

  it('calls the handler directly only when in-process calls are on', async () => {
    neverCalls.length = 0;
    await outcome(false, () => client.never({}, { deadlineMs: 50 }));
    await outcome(true, () => client.never({}, { deadlineMs: 50 }));
    expect(neverCalls.map((c) => c.getPeer() === 'in-process')).toEqual([false, true]);
  });
});

describe('drain', () => {
  it('does not wait for an in-process call that ended at its deadline (its handler never answers)', async () => {
    const lines: string[] = [];
    const captured = createLogger({ name: 'drain-spec', level: 'info', destination: new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }) });
    const local = await startGrpcServer({ name: 'deadline-drain', host: '127.0.0.1', port: 0, logger: captured, register: (s) => s.addService(definition, implementation) });
    const c = createServiceClient(definition, `127.0.0.1:${local.port}`);
    setInProcessCalls(true);
    await expect(c.never({}, { deadlineMs: 50 })).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
    await local.shutdown(5000);
    expect(lines.some((l) => l.includes('grpc server stopped'))).toBe(true);
    expect(lines.some((l) => l.includes('drain timed out'))).toBe(false);
    c.close();
  });

  it('waits for an in-process call in flight, and sends new calls to gRPC, which refuses them once closed', async () => {
    const local = await startGrpcServer({ name: 'drain', host: '127.0.0.1', port: 0, logger, register: (s) => s.addService(definition, implementation) });
    const drainClient = createServiceClient(definition, `127.0.0.1:${local.port}`);
    setInProcessCalls(true);
    const inFlight = drainClient.slow({});
    let stopped = false;
    const stopping = local.shutdown(5000).then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    const after = await drainClient.echo({ text: 'late' }).then(
      () => 'answered',
      (e: ServiceError) => e.code,
    );
    expect(after).toBe(status.UNAVAILABLE);
    release?.();
    await expect(inFlight).resolves.toEqual({ text: 'finished' });
    await stopping;
    expect(stopped).toBe(true);
    drainClient.close();
  });
});

describe('message limits set by the server and by the client', () => {
  it('refuse what gRPC refuses, with the same codes and messages', async () => {
    const limited = await startGrpcServer({ name: 'limited', host: '127.0.0.1', port: 0, logger, register: (s) => s.addService(definition, implementation), maxMessageBytes: 1000 });
    const c = createServiceClient(definition, `127.0.0.1:${limited.port}`);
    expect(await same(() => c.echo({ pad: 'x'.repeat(2000) }))).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // server receive
    expect(await same(() => c.grow({ text: '2000' }))).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // server send
    expect(await same(() => c.grow({ text: '10' }))).toEqual({ ok: { pad: 'x'.repeat(10) } });
    c.close();
    await limited.shutdown(1000);

    const address = `127.0.0.1:${server.port}`;
    const tight = new Client(address, credentials.createInsecure(), { 'grpc.max_send_message_length': 100, 'grpc.max_receive_message_length': 100 });
    const channel = { client: tight, loopback: loopbackTarget(address), maxSendBytes: 100, maxReceiveBytes: 100 };
    const call = (req: Msg) => () => callUnary(channel, definition.grow, req, undefined, 5000) as Promise<Msg>;
    expect(await same(call({ text: '200' }))).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // client receive
    expect(await same(call({ text: '1', pad: 'x'.repeat(200) }))).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // client send
    expect(await same(call({ text: '5' }))).toEqual({ ok: { pad: 'xxxxx' } });
    tight.close();
  });
});

describe('implementations keyed by the original method name', () => {
  it('are found as grpc-js finds them', async () => {
    const byOriginalName = await startGrpcServer({
      name: 'original-names',
      host: '127.0.0.1',
      port: 0,
      logger,
      register: (s) => s.addService({ echo: definition.echo }, { Echo: (call: Call, cb: sendUnaryData<Msg>) => cb(null, { text: call.getPeer() === 'in-process' ? 'direct' : 'grpc' }) }),
    });
    const c = createServiceClient({ echo: definition.echo }, `127.0.0.1:${byOriginalName.port}`);
    expect(await outcome(false, () => c.echo({}))).toEqual({ ok: { text: 'grpc' } });
    expect(await outcome(true, () => c.echo({}))).toEqual({ ok: { text: 'direct' } });
    c.close();
    await byOriginalName.shutdown(1000);
  });
});

describe('who turns them on', () => {
  it('stays on while any user holds them; a release counts once', async () => {
    const first = useInProcessCalls();
    const second = useInProcessCalls();
    const peer = async () => {
      neverCalls.length = 0;
      await client.never({}, { deadlineMs: 30 }).catch(() => undefined);
      return neverCalls[0].getPeer() === 'in-process';
    };
    expect(await peer()).toBe(true);
    first();
    first();
    expect(await peer()).toBe(true);
    second();
    expect(await peer()).toBe(false);
  });

  it('a closed client refuses calls in process as over gRPC', async () => {
    const closed = createServiceClient(definition, `127.0.0.1:${server.port}`);
    closed.close();
    expect(await same(() => closed.echo({ text: 'after close' }))).toEqual({ error: 'Channel has been shut down' });
  });
});

describe('which server a loopback target reaches', () => {
  const path = definition.echo.path;
  const served = (host: string) => {
    const local = new LocalServer();
    local.methods.set(path, { handler: () => undefined, requestDeserialize: () => ({}), responseSerialize: () => Buffer.alloc(0), maxReceiveBytes: -1, maxSendBytes: -1 });
    serveInProcess(host, 40001, local);
    return local;
  };
  const reached = (address: string) => localTarget(loopbackTarget(address), path)?.server;

  it('is the server bound to a host that client reaches over loopback, the latest on a port', () => {
    setInProcessCalls(true);
    const wildcard = served('0.0.0.0');
    expect(reached('127.0.0.1:40001')).toBe(wildcard);
    expect(reached('localhost:40001')).toBe(wildcard);
    expect(reached('[::1]:40001')).toBeUndefined(); // an IPv4 wildcard does not listen on ::1
    const v6 = served('[::1]');
    expect(reached('[::1]:40001')).toBe(v6);
    expect(reached('127.0.0.1:40001')).toBeUndefined();
    const elsewhere = served('10.0.0.5');
    expect(reached('127.0.0.1:40001')).toBeUndefined();
    // A server that stops after another took its port leaves the newer one served.
    const restarted = served('127.0.0.1');
    stopServingInProcess(40001, elsewhere);
    expect(reached('127.0.0.1:40001')).toBe(restarted);
    stopServingInProcess(40001, restarted);
    expect(reached('127.0.0.1:40001')).toBeUndefined();
  });

  it('parses loopback targets only', () => {
    expect(loopbackTarget('127.0.0.1:50051')).toEqual({ host: '127.0.0.1', port: 50051 });
    expect(loopbackTarget('localhost:7')).toEqual({ host: 'localhost', port: 7 });
    expect(loopbackTarget('[::1]:443')).toEqual({ host: '[::1]', port: 443 });
    for (const address of ['10.0.0.5:50051', 'identity:50051', 'dns:///127.0.0.1:50051', '127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', '127.0.0.1:5x']) {
      expect(loopbackTarget(address)).toBeUndefined();
    }
  });
});
