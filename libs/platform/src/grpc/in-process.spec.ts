import { Client, credentials, Metadata, status, type sendUnaryData, type ServerUnaryCall, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import { Writable } from 'node:stream';
import { callUnary, createServiceClient, errorInfoFromGrpc, unaryMethodsOf, type PromiseClient, type UnaryChannel } from '../grpc-client';
import { startGrpcServer, type GrpcServerHandle } from '../grpc-server';
import { DomainError } from '../errors';
import { createLogger } from '../logger';
import { unary } from '../unary';
import { LocalServer, localServer, loopbackTarget, serveInProcess, stopServingInProcess, useInProcessCalls } from './in-process';

// Every outcome a unary call can have, through real gRPC and in process, on the same server: the
// in-process path must give what gRPC gives (answers, codes, details, trailers). The in-process
// leg uses a client whose gRPC channel fails every call, so a case that silently went through
// gRPC fails instead of comparing gRPC with itself.

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

type Methods = PromiseClient<typeof definition>;
const logger = createLogger({ name: 'in-process-spec', level: 'silent' });
type Call = ServerUnaryCall<Msg, Msg>;
/** Every call `never` received (it never answers); tests find theirs by `request.text`. */
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
    neverCalls.push(call);
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

/** A grpc-js client that fails any call made through it: what the in-process leg must never use. */
const NO_GRPC = {
  makeUnaryRequest: () => {
    throw new Error('went through gRPC');
  },
} as unknown as Client;

/** The methods at `address` on a channel whose gRPC side fails: they answer only in process. */
function directClient(address: string, limits: Partial<UnaryChannel> = {}): Methods {
  return unaryMethodsOf({ client: NO_GRPC, loopback: loopbackTarget(address), ...limits }, definition, 5000) as Methods;
}

async function waitFor(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

/** The calls `never` received for `marker`, once `count` of them arrived. */
async function neverCallsFor(marker: string, count: number): Promise<Call[]> {
  const mine = () => neverCalls.filter((c) => c.request.text === marker);
  await waitFor(`${count} call(s) marked ${marker}`, () => mine().length >= count);
  return mine();
}

type Outcome = { ok: Msg } | { error: string } | { code: number; details: string; trailers: Record<string, unknown> };

let server: GrpcServerHandle;
let client: Methods;
let direct: Methods;

beforeAll(async () => {
  server = await startGrpcServer({ name: 'parity', host: '127.0.0.1', port: 0, logger, register: (s) => s.addService(definition, implementation) });
  client = createServiceClient(definition, `127.0.0.1:${server.port}`);
  direct = directClient(`127.0.0.1:${server.port}`);
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
    if (typeof e.code !== 'number') return { error: e.message }; // refused before any call (a closed client, bad metadata)
    expect(e.message).toBe(`${e.code} ${status[e.code]}: ${e.details}`);
    // The elapsed time and the peer's address differ by nature.
    const details = e.details.replace(/^Deadline exceeded after \d+\.\d{3}s,(.*,)?remote_addr=\S+$/, 'Deadline exceeded after <elapsed>,remote_addr=<peer>');
    return { code: e.code, details, trailers: trailersOf(e.metadata) };
  }
}

/** The outcome over gRPC (`viaGrpc`) and in process (`inProcess`, which cannot use gRPC): equal; returns it. */
async function same(call: (methods: Methods) => Promise<Msg>, clients: { viaGrpc: Methods; inProcess: Methods } = { viaGrpc: client, inProcess: direct }): Promise<Outcome> {
  const viaGrpc = await outcome(false, () => call(clients.viaGrpc));
  const inProcess = await outcome(true, () => call(clients.inProcess));
  expect(inProcess).toEqual(viaGrpc);
  return inProcess;
}

const EXPIRED = { code: status.DEADLINE_EXCEEDED, details: 'Deadline exceeded after <elapsed>,remote_addr=<peer>', trailers: {} };

describe('in-process unary calls give what gRPC gives', () => {
  it('answers with a decoded copy of the request and passes the metadata', async () => {
    expect(await same((c) => c.echo({ text: 'héllo\u0000' }, { requestId: 'req_parity' }))).toEqual({
      ok: { text: 'héllo\u0000', requestId: 'req_parity' },
    });
  });

  it('passes a DomainError with its code, message and details trailers', async () => {
    const result = await same((c) => c.domainError({}));
    expect(result).toMatchObject({ code: status.FAILED_PRECONDITION, trailers: { 'x-error-code': 'insufficient_funds' } });
    setInProcessCalls(true);
    const err = await direct.domainError({}).catch((e: unknown) => e);
    expect(errorInfoFromGrpc(err)).toEqual({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds', message: 'not enough — ünïcode', details: { needed: '5.00' } });
  });

  it('passes a status error with its own details and trailers (text and binary)', async () => {
    expect(await same((c) => c.statusError({}))).toEqual({ code: status.ABORTED, details: 'aborted details', trailers: { 'x-custom': 'yes', 'x-blob-bin': 'AAEC/w==' } });
  });

  it('sends the trailer argument over the metadata of the error, and UNKNOWN with the message for a code that is not an integer', async () => {
    expect(await same((c) => c.trailerWins({}))).toEqual({ code: status.NOT_FOUND, details: 'd', trailers: { 'x-from': 'trailer' } });
    expect(await same((c) => c.fractionalCode({}))).toEqual({ code: status.UNKNOWN, details: 'fractional', trailers: {} });
  });

  it('maps an error without a code to UNKNOWN with its message', async () => {
    expect(await same((c) => c.plainError({}))).toEqual({ code: status.UNKNOWN, details: 'plain failure', trailers: {} });
  });

  it('answers a handler that throws with UNKNOWN', async () => {
    expect(await same((c) => c.throws({}))).toEqual({ code: status.UNKNOWN, details: 'Unknown error', trailers: {} });
  });

  it('sends a method the server does not implement through gRPC (UNIMPLEMENTED)', async () => {
    const viaGrpc = { code: status.UNIMPLEMENTED };
    expect(await same((c) => c.unimplemented({}), { viaGrpc: client, inProcess: client })).toMatchObject(viaGrpc);
    setInProcessCalls(true);
    await expect(direct.unimplemented({})).rejects.toThrow('went through gRPC'); // never in process
  });

  it.each([
    ['request serializer', { failRequestSerialize: true }],
    ['request deserializer', { failRequestDeserialize: true }],
    ['response serializer', { failResponseSerialize: true }],
    ['response deserializer', { failResponseDeserialize: true }],
  ])('fails like gRPC when the %s throws', async (_name, request) => {
    expect(await same((c) => c.echo(request))).toMatchObject({ code: status.INTERNAL });
  });

  it('refuses a request over the server receive limit and a response over the client receive limit', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024 + 10);
    expect(await same((c) => c.echo({ pad: big }))).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    expect(await same((c) => c.bigReply({}))).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
  });

  it('rejects (never throws) when the metadata cannot be made', async () => {
    for (const [on, methods] of [
      [false, client],
      [true, direct],
    ] as const) {
      setInProcessCalls(on);
      let pending: Promise<unknown> | undefined;
      expect(() => (pending = methods.echo({}, { requestId: 'é' }))).not.toThrow();
      await expect(pending).rejects.toThrow(/illegal characters/);
    }
  });

  it('ends a call at its deadline with DEADLINE_EXCEEDED and marks the server call cancelled', async () => {
    expect(await same((c) => c.never({ text: 'deadline' }, { deadlineMs: 100 }))).toEqual(EXPIRED);
    const calls = await neverCallsFor('deadline', 2);
    expect(calls.map((c) => c.getPeer() === 'in-process').sort()).toEqual([false, true]);
    await waitFor('both calls cancelled', () => calls.every((c) => c.cancelled));
  });

  it('fails a call whose deadline has already passed without running its handler in process', async () => {
    expect(await same((c) => c.never({ text: 'expired' }, { deadlineMs: 0 }))).toEqual(EXPIRED);
    // Over gRPC the stream may still reach the server later; in process the handler never runs.
    expect(neverCalls.filter((c) => c.request.text === 'expired' && c.getPeer() === 'in-process')).toEqual([]);
  });

  it('calls the handler directly only when in-process calls are on', async () => {
    await outcome(false, () => client.never({ text: 'switch-off' }, { deadlineMs: 500 }));
    await outcome(true, () => client.never({ text: 'switch-on' }, { deadlineMs: 50 }));
    expect((await neverCallsFor('switch-off', 1)).map((c) => c.getPeer())).not.toContain('in-process');
    expect((await neverCallsFor('switch-on', 1)).map((c) => c.getPeer())).toEqual(['in-process']);
  });
});

describe('who turns them on', () => {
  it('stays on while any user holds them; a release counts once', async () => {
    const first = useInProcessCalls();
    const second = useInProcessCalls();
    try {
      const reachesInProcess = () => localServer(loopbackTarget(`127.0.0.1:${server.port}`)) !== undefined;
      expect(reachesInProcess()).toBe(true);
      first();
      first();
      expect(reachesInProcess()).toBe(true);
      second();
      expect(reachesInProcess()).toBe(false);
    } finally {
      first();
      second();
    }
  });

  it('a closed client refuses calls in process as over gRPC', async () => {
    const closed = createServiceClient(definition, `127.0.0.1:${server.port}`);
    closed.close();
    expect(await same((c) => c.echo({ text: 'after close' }), { viaGrpc: closed, inProcess: closed })).toEqual({ error: 'Channel has been shut down' });
  });
});

describe('drain', () => {
  it('does not wait for an in-process call that ended at its deadline (its handler never answers)', async () => {
    const lines: string[] = [];
    const captured = createLogger({ name: 'drain-spec', level: 'info', destination: new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }) });
    const local = await startGrpcServer({ name: 'deadline-drain', host: '127.0.0.1', port: 0, logger: captured, register: (s) => s.addService(definition, implementation) });
    setInProcessCalls(true);
    await expect(directClient(`127.0.0.1:${local.port}`).never({}, { deadlineMs: 50 })).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
    await local.shutdown(5000);
    expect(lines.some((l) => l.includes('grpc server stopped'))).toBe(true);
    expect(lines.some((l) => l.includes('drain timed out'))).toBe(false);
  });

  it('waits for an in-process call in flight, and sends new calls to gRPC, which refuses them once closed', async () => {
    const local = await startGrpcServer({ name: 'drain', host: '127.0.0.1', port: 0, logger, register: (s) => s.addService(definition, implementation) });
    const drainClient = createServiceClient(definition, `127.0.0.1:${local.port}`);
    setInProcessCalls(true);
    const inFlight = directClient(`127.0.0.1:${local.port}`).slow({});
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
    const limitedAddress = `127.0.0.1:${limited.port}`;
    const viaGrpc = createServiceClient(definition, limitedAddress);
    const clients = { viaGrpc, inProcess: directClient(limitedAddress) };
    expect(await same((c) => c.echo({ pad: 'x'.repeat(2000) }), clients)).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // server receive
    expect(await same((c) => c.grow({ text: '2000' }), clients)).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // server send
    expect(await same((c) => c.grow({ text: '10' }), clients)).toEqual({ ok: { pad: 'x'.repeat(10) } });
    viaGrpc.close();
    await limited.shutdown(1000);

    const address = `127.0.0.1:${server.port}`;
    const tight = new Client(address, credentials.createInsecure(), { 'grpc.max_send_message_length': 100, 'grpc.max_receive_message_length': 100 });
    const limits = { maxSendBytes: 100, maxReceiveBytes: 100 };
    const tightClients = {
      viaGrpc: unaryMethodsOf({ client: tight, loopback: loopbackTarget(address), ...limits }, definition, 5000) as Methods,
      inProcess: directClient(address, limits),
    };
    expect(await same((c) => c.grow({ text: '200' }), tightClients)).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // client receive
    expect(await same((c) => c.grow({ text: '1', pad: 'x'.repeat(200) }), tightClients)).toMatchObject({ code: status.RESOURCE_EXHAUSTED }); // client send
    expect(await same((c) => c.grow({ text: '5' }), tightClients)).toEqual({ ok: { pad: 'xxxxx' } });
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
    const address = `127.0.0.1:${byOriginalName.port}`;
    const c = createServiceClient({ echo: definition.echo }, address);
    expect(await outcome(false, () => c.echo({}))).toEqual({ ok: { text: 'grpc' } });
    expect(await outcome(true, () => directClient(address).echo({}))).toEqual({ ok: { text: 'direct' } });
    c.close();
    await byOriginalName.shutdown(1000);
  });
});

describe('which server a loopback target reaches', () => {
  // Port 1: no server of this spec can bind it, so these fake entries shadow none.
  const PORT = 1;
  const served = (host: string) => {
    const local = new LocalServer();
    serveInProcess(host, PORT, local);
    return local;
  };
  const reached = (address: string) => localServer(loopbackTarget(address));

  it('is the server bound to a host that client reaches over loopback, the latest on a port', () => {
    setInProcessCalls(true);
    const wildcard = served('0.0.0.0');
    expect(reached('127.0.0.1:1')).toBe(wildcard);
    expect(reached('localhost:1')).toBe(wildcard);
    expect(reached('[::1]:1')).toBeUndefined(); // an IPv4 wildcard does not listen on ::1
    const v6 = served('[::1]');
    expect(reached('[::1]:1')).toBe(v6);
    expect(reached('127.0.0.1:1')).toBeUndefined();
    const elsewhere = served('10.0.0.5');
    expect(reached('127.0.0.1:1')).toBeUndefined();
    // A server that stops after another took its port leaves the newer one served.
    const restarted = served('127.0.0.1');
    stopServingInProcess(PORT, elsewhere);
    expect(reached('127.0.0.1:1')).toBe(restarted);
    stopServingInProcess(PORT, restarted);
    expect(reached('127.0.0.1:1')).toBeUndefined();
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

describe('callUnary', () => {
  it('goes through the channel when no server of this process serves the target', async () => {
    setInProcessCalls(true);
    const elsewhere = { client: NO_GRPC, loopback: loopbackTarget('127.0.0.1:2') };
    await expect(callUnary(elsewhere, definition.echo, {}, undefined, 1000)).rejects.toThrow('went through gRPC');
  });
});
