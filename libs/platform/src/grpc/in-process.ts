import { EventEmitter } from 'node:events';
import { Metadata, status, type handleUnaryCall, type sendUnaryData, type Server, type ServiceError } from '@grpc/grpc-js';

/**
 * In-process unary calls, for the all-in-one exchange (one process runs every service): a client
 * whose target is a loopback port that a gRPC server of this same process listens on calls that
 * server's handler directly instead of through HTTP/2 on loopback. The target is the same
 * handler either way; what is skipped is the transport (framing, HTTP/2 streams and headers,
 * grpc-js's call layers), a large share of a cheap call's CPU (libs/platform/README.md
 * "In-process calls" has the figures).
 *
 * What a call sees is what gRPC would give it: the request goes through the client's serializer
 * and the server's deserializer (so the handler gets a fresh decoded copy, unknown fields
 * dropped), the response back the same way; the deadline is enforced (DEADLINE_EXCEEDED, and the
 * server call is marked cancelled); the message limits of both sides apply (gRPC's 4 MiB, the
 * server's and the client's own), and every failure has grpc-js's status code and details.
 *
 * Off unless `useInProcessCalls()` (the all-in-one launcher, until it stops): a process that does
 * not opt in — every distributed service, every spec of a single service — keeps real gRPC. A
 * client that was closed, and streaming methods, always use gRPC.
 */

/** grpc-js's default receive limit (4 MiB) where no option sets one; -1 = none. */
const DEFAULT_MAX_RECEIVE_BYTES = 4 * 1024 * 1024;

interface LocalUnary {
  handler: handleUnaryCall<unknown, unknown>;
  requestDeserialize: (bytes: Buffer) => unknown;
  responseSerialize: (value: unknown) => Buffer;
}

/** The client side of a method (as in a ts-proto service definition). */
export interface ClientMethod {
  path: string;
  requestStream?: boolean;
  responseStream?: boolean;
  requestSerialize: (value: never) => Buffer;
  responseDeserialize: (bytes: Buffer) => unknown;
}

/** A side's message limits (grpc.max_send/receive_message_length); gRPC's defaults when absent. */
export interface MessageLimits {
  maxReceiveBytes?: number;
  maxSendBytes?: number;
}

const receiveLimit = (limits: MessageLimits) => limits.maxReceiveBytes ?? DEFAULT_MAX_RECEIVE_BYTES;
const sendLimit = (limits: MessageLimits) => limits.maxSendBytes ?? -1;

/** How many all-in-one exchanges of this process use in-process calls (tests may run two). */
let users = 0;
/** Servers of this process by port. */
const servers = new Map<number, LocalServer>();

/**
 * Turns in-process calls on for this process until the returned function is called (the
 * all-in-one exchange, at start and at stop); they stay on while any caller holds them.
 */
export function useInProcessCalls(): () => void {
  users++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users--;
  };
}

/** A gRPC server's unary methods as called in process, and the calls in flight (a drain waits for them). */
export class LocalServer {
  readonly methods = new Map<string, LocalUnary>();
  /** The host the gRPC server is bound to (set when served). */
  host = '';
  /** The server's receive and send limits (-1: none). */
  readonly maxReceiveBytes: number;
  readonly maxSendBytes: number;
  private inFlight = 0;
  private idle: Array<() => void> = [];

  constructor(limits: MessageLimits = {}) {
    this.maxReceiveBytes = receiveLimit(limits);
    this.maxSendBytes = sendLimit(limits);
  }

  started(): void {
    this.inFlight++;
  }

  ended(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const wake of this.idle.splice(0)) wake();
  }

  /** Resolves once no in-process call is running (as grpc-js's tryShutdown waits for its calls). */
  drained(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }
}

/**
 * Records every unary method `server.addService` registers from now on (health included), so the
 * server can be served in process once bound. grpc-js keeps its handlers private: the instance's
 * addService is wrapped, and still registers everything with grpc-js as before.
 */
export function captureUnaryMethods(server: Server, limits: MessageLimits): LocalServer {
  const local = new LocalServer(limits);
  const addService = server.addService.bind(server);
  server.addService = (definition, implementation) => {
    addService(definition, implementation);
    for (const [name, method] of Object.entries(definition)) {
      if (method.requestStream || method.responseStream) continue;
      // grpc-js looks the implementation up by key, then by the method's original name.
      const impl = implementation as Record<string, unknown>;
      const handler = impl[name] ?? (method.originalName ? impl[method.originalName] : undefined);
      if (typeof handler !== 'function') continue; // grpc-js answers UNIMPLEMENTED; so does the gRPC path
      local.methods.set(method.path, {
        handler: handler as handleUnaryCall<unknown, unknown>,
        requestDeserialize: method.requestDeserialize,
        responseSerialize: method.responseSerialize as (value: unknown) => Buffer,
      });
    }
  };
  return local;
}

/** A client's loopback target. */
export interface LoopbackTarget {
  host: string;
  port: number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a client of loopback `clientHost` reaches a server bound to `serverHost` on the same port. */
function reaches(serverHost: string, clientHost: string): boolean {
  switch (serverHost) {
    case '::':
    case '[::]':
    case 'localhost':
      return true;
    case '0.0.0.0':
    case '127.0.0.1':
      return clientHost !== '[::1]';
    case '[::1]':
      return clientHost !== '127.0.0.1';
    default:
      return false; // bound to another interface: loopback clients do not reach it
  }
}

/** Serves `local` in process on `port`, bound to `host`. */
export function serveInProcess(host: string, port: number, local: LocalServer): void {
  local.host = host;
  servers.set(port, local);
}

/** Stops serving `port` in process (its server is shutting down: new calls go to gRPC, which refuses them). */
export function stopServingInProcess(port: number, local: LocalServer): void {
  if (servers.get(port) === local) servers.delete(port);
}

/** The host and port of a `host:port` loopback target, else undefined (never served in process). */
export function loopbackTarget(address: string): LoopbackTarget | undefined {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon);
  if (colon < 0 || !LOOPBACK_HOSTS.has(host)) return undefined;
  const port = Number(address.slice(colon + 1));
  return Number.isInteger(port) && port > 0 && port < 65536 ? { host, port } : undefined;
}

/** The server of this process a call to `target` reaches in process, when in-process calls are on. */
export function localServer(target: LoopbackTarget | undefined): LocalServer | undefined {
  if (users === 0 || target === undefined) return undefined;
  const server = servers.get(target.port);
  return server && reaches(server.host, target.host) ? server : undefined;
}

/** The error grpc-js's client gives for a failed call (`callErrorFromStatus`, without the caller's stack). */
function callError(code: status, details: string, metadata: Metadata): ServiceError {
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata });
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The status grpc-js's server sends for an error a handler passed to its callback (`serverErrorToStatus`). */
function serverErrorStatus(err: Partial<ServiceError>, trailer: Metadata | undefined): { code: status; details: string; metadata: Metadata } {
  const metadata = trailer ?? (err.metadata instanceof Metadata ? err.metadata : undefined);
  let code = status.UNKNOWN;
  let details = 'message' in err ? String(err.message) : 'Unknown Error';
  if (typeof err.code === 'number' && Number.isInteger(err.code)) {
    code = err.code;
    if (typeof err.details === 'string') details = err.details;
  }
  return { code, details, metadata: metadata ? metadata.clone() : new Metadata() };
}

/** What a unary handler sees of its call in process (the fields grpc-js's ServerUnaryCall offers). */
class LocalServerCall extends EventEmitter {
  cancelled = false;

  constructor(
    readonly request: unknown,
    readonly metadata: Metadata,
    private readonly path: string,
    private readonly deadline: number,
  ) {
    super();
  }

  getDeadline(): number {
    return this.deadline;
  }

  getPath(): string {
    return this.path;
  }

  getPeer(): string {
    return 'in-process';
  }

  getHost(): string {
    return 'localhost';
  }

  sendMetadata(): void {
    // Unary answers carry no initial metadata the exchange's clients read.
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.emit('cancelled', 'cancelled'); // grpc-js's argument
  }
}

/**
 * One unary call to `local`, a method of `server`: the request serialized and deserialized, the
 * handler's answer serialized and deserialized, each failure as grpc-js reports it (codes and
 * details of grpc-js 1.14), the deadline enforced. The handler gets `metadata` itself (made for
 * this call). Never throws: every failure rejects.
 */
export function callInProcess<Res>(
  server: LocalServer,
  local: LocalUnary,
  method: ClientMethod,
  request: unknown,
  metadata: Metadata,
  deadline: number,
  limits: MessageLimits,
): Promise<Res> {
  const clientMaxReceiveBytes = receiveLimit(limits);
  const clientMaxSendBytes = sendLimit(limits);
  return new Promise<Res>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const fail = (code: status, details: string, trailers = new Metadata()) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      reject(callError(code, details, trailers));
    };

    let bytes: Buffer;
    try {
      bytes = (method.requestSerialize as (value: unknown) => Buffer)(request);
    } catch (err) {
      return fail(status.INTERNAL, `Request message serialization failure: ${messageOf(err)}`);
    }
    if (clientMaxSendBytes !== -1 && bytes.length > clientMaxSendBytes) {
      return fail(status.RESOURCE_EXHAUSTED, `Attempted to send message with a size larger than ${clientMaxSendBytes}`);
    }
    if (server.maxReceiveBytes !== -1 && bytes.length > server.maxReceiveBytes) {
      return fail(status.RESOURCE_EXHAUSTED, `Received message larger than max (${bytes.length} vs ${server.maxReceiveBytes})`);
    }
    const started = Date.now();
    // grpc-js's client ends an expired call before it reaches the server.
    const deadlineExceeded = () => fail(status.DEADLINE_EXCEEDED, `Deadline exceeded after ${((Date.now() - started) / 1000).toFixed(3)}s,remote_addr=in-process`);
    if (deadline <= started) return deadlineExceeded();
    let decoded: unknown;
    try {
      decoded = local.requestDeserialize(bytes);
    } catch {
      // grpc-js sends the deserializer's message only with GRPC_NODE_DEBUG_SEND_ERROR_DETAILS.
      return fail(status.INTERNAL, 'Error deserializing request');
    }

    const call = new LocalServerCall(decoded, metadata, method.path, deadline);
    // Counted until the handler answers or the call ends at its deadline (grpc-js's drain stops
    // waiting for a call whose stream closed).
    let running = true;
    server.started();
    const end = () => {
      if (!running) return;
      running = false;
      server.ended();
    };
    if (Number.isFinite(deadline)) {
      timer = setTimeout(() => {
        call.cancel();
        end();
        deadlineExceeded(); // with the elapsed time, as grpc-js's client says it
      }, deadline - started);
    }

    const answer: sendUnaryData<unknown> = (err, value, trailer) => {
      end();
      if (settled) return; // grpc-js drops answers to a call that already ended
      if (err) {
        const st = serverErrorStatus(err, trailer ?? undefined);
        return fail(st.code, st.details, st.metadata);
      }
      let out: Buffer;
      try {
        out = local.responseSerialize(value);
      } catch {
        return fail(status.INTERNAL, 'Error serializing response');
      }
      // grpc-js compares the framed length (5-byte prefix) minus 5 on send, the message length on receive.
      if (server.maxSendBytes !== -1 && out.length > server.maxSendBytes) {
        return fail(status.RESOURCE_EXHAUSTED, `Sent message larger than max (${out.length + 5} vs. ${server.maxSendBytes})`);
      }
      if (clientMaxReceiveBytes !== -1 && out.length > clientMaxReceiveBytes) {
        return fail(status.RESOURCE_EXHAUSTED, `Received message larger than max (${out.length} vs ${clientMaxReceiveBytes})`);
      }
      let response: Res;
      try {
        response = method.responseDeserialize(out) as Res;
      } catch (e) {
        return fail(status.INTERNAL, `Response message parsing error: ${messageOf(e)}`);
      }
      settled = true;
      if (timer) clearTimeout(timer);
      resolve(response);
    };

    try {
      local.handler(call as never, answer);
    } catch {
      end();
      fail(status.UNKNOWN, 'Unknown error'); // grpc-js's answer to a handler that throws
    }
  });
}
