import { callContextFromMetadata, DomainError, startGrpcServer, unary, type CallContext, type GrpcServerHandle } from '@exchange/platform';
import {
  status,
  type handleBidiStreamingCall,
  type handleClientStreamingCall,
  type handleServerStreamingCall,
  type Metadata,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { testLogger } from './test-logger';

// A fake of any gRPC service, served from its ts-proto service definition on a REAL grpc-js
// server (port 0), so tests exercise the real channel, metadata and error trailers. Every method
// of the definition answers: with its override when one is given, else with the default message
// of its response type (every field at its proto default; decoding zero bytes builds exactly
// that), or UNIMPLEMENTED (`missing: 'unimplemented'`). Unary calls are recorded (method,
// request, metadata) before a failure queued with `failNext` is thrown; streaming methods keep
// hand-written grpc-js handlers, which record through the fake's CallLog themselves.

export interface RecordedCall {
  /** The method's key in the definition (camelCase, e.g. "getAgent"). */
  method: string;
  request: unknown;
  metadata: Metadata;
  /** What the service reads from the metadata: request id, trace id, actor, acting agent. */
  ctx: Pick<CallContext, 'requestId' | 'traceId' | 'actor' | 'agentId'>;
}

type RequestOf<M> = M extends { requestDeserialize(bytes: Buffer): infer R } ? R : never;
type ResponseOf<M> = M extends { responseDeserialize(bytes: Buffer): infer R } ? R : never;

/** A unary method's answer (may be async); a thrown DomainError travels as its status and code. */
export type UnaryOverride<M> = (request: RequestOf<M>, ctx: CallContext) => Promise<ResponseOf<M>> | ResponseOf<M>;

/** The handler of one method: unary as a function of (request, ctx), streaming as grpc-js's own. */
export type ProtoFakeHandler<M> = M extends { requestStream: false; responseStream: false }
  ? UnaryOverride<M>
  : M extends { requestStream: true; responseStream: false }
    ? handleClientStreamingCall<RequestOf<M>, ResponseOf<M>>
    : M extends { requestStream: false; responseStream: true }
      ? handleServerStreamingCall<RequestOf<M>, ResponseOf<M>>
      : handleBidiStreamingCall<RequestOf<M>, ResponseOf<M>>;

export type ProtoFakeOverrides<D> = { [K in keyof D]?: ProtoFakeHandler<D[K]> };

/** One service and its overrides, for a server that hosts several (`also`). */
export interface ProtoFakeService {
  definition: ServiceDefinition;
  overrides: Record<string, unknown>;
}

/** Pairs a definition with its overrides, typed by the definition. */
export function protoService<D extends ServiceDefinition>(definition: D, overrides: ProtoFakeOverrides<D> = {}): ProtoFakeService {
  return { definition, overrides: overrides as Record<string, unknown> };
}

/** The calls a fake has seen, and the failures queued for its next ones. */
export class CallLog {
  readonly calls: RecordedCall[] = [];
  private readonly failures = new Map<string, Error>();

  /** The next call of `method` (camelCase, e.g. "faucet") fails with `err` (once). */
  failNext(method: string, err: Error): void {
    this.failures.set(method, err);
  }

  /** The last recorded call of `method`. */
  lastCall<T = unknown>(method: string): { request: T; ctx: RecordedCall['ctx']; metadata: Metadata } {
    const call = this.calls.filter((c) => c.method === method).at(-1);
    if (!call) throw new Error(`no ${method} call recorded`);
    return { request: call.request as T, ctx: call.ctx, metadata: call.metadata };
  }

  /** How many calls of `method` were recorded. */
  count(method: string): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  /** Records a call, then throws the failure queued for `method`, if any (streaming handlers call it). */
  record(method: string, request: unknown, metadata: Metadata): CallContext {
    const ctx = callContextFromMetadata(metadata, testLogger);
    this.calls.push({ method, request, metadata, ctx: { requestId: ctx.requestId, traceId: ctx.traceId, actor: ctx.actor, agentId: ctx.agentId } });
    const failure = this.failures.get(method);
    if (failure) {
      this.failures.delete(method);
      throw failure;
    }
    return ctx;
  }
}

export interface ProtoFakeOptions {
  /** Health service name (default: the package.Service of the first method's path). */
  name?: string;
  /** false: health stays NOT_SERVING (default true). */
  serving?: boolean;
  /** A unary method without an override: its default response (default) or UNIMPLEMENTED. */
  missing?: 'default' | 'unimplemented';
  /** More services on the same server and port (e.g. the market's side services). */
  also?: ProtoFakeService[];
  /** Records into this log (so streaming overrides written before the start can record too). */
  log?: CallLog;
  /** Largest message either way (default: gRPC's 4 MiB receive limit). */
  maxMessageBytes?: number;
}

export interface ProtoFake {
  /** host:port of the gRPC server. */
  address: string;
  handle: GrpcServerHandle;
  log: CallLog;
  calls: RecordedCall[];
  failNext(method: string, err: Error): void;
  lastCall<T = unknown>(method: string): { request: T; ctx: RecordedCall['ctx']; metadata: Metadata };
  stop(): Promise<void>;
}

function serviceName(definition: ServiceDefinition): string {
  const first = Object.values(definition)[0];
  return first?.path.split('/')[1] ?? 'fake';
}

function implement(service: ProtoFakeService, log: CallLog, missing: ProtoFakeOptions['missing']): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const [method, def] of Object.entries(service.definition)) {
    const override = service.overrides[method];
    if (def.requestStream || def.responseStream) {
      implementation[method] =
        (override as UntypedServiceImplementation[string] | undefined) ??
        ((call: { emit(event: 'error', err: unknown): void }, callback?: (err: unknown) => void) => {
          const err = { code: status.UNIMPLEMENTED, details: `${method} is not implemented by the fake` };
          if (callback) callback(err);
          else call.emit('error', err);
        });
      continue;
    }
    const answer =
      (override as ((request: unknown, ctx: CallContext) => unknown) | undefined) ??
      (missing === 'unimplemented'
        ? () => {
            throw new DomainError(status.UNIMPLEMENTED, 'unimplemented', `${method} is not implemented by the fake`);
          }
        : () => def.responseDeserialize(Buffer.alloc(0)));
    implementation[method] = unary(testLogger, method, async (request: unknown, ctx: CallContext) => {
      log.record(method, request, ctx.metadata);
      return answer(request, ctx);
    });
  }
  return implementation;
}

/**
 * Starts a fake of `definition` (e.g. `walletV1.WalletLedgerServiceService`) on 127.0.0.1, port 0.
 * `overrides` answer the methods the test relies on; every other method answers a default.
 */
export async function startProtoFake<D extends ServiceDefinition>(
  definition: D,
  overrides: ProtoFakeOverrides<D> = {},
  opts: ProtoFakeOptions = {},
): Promise<ProtoFake> {
  const log = opts.log ?? new CallLog();
  const services = [protoService(definition, overrides), ...(opts.also ?? [])];
  // Calls are recorded by method key: two services with one key could not be told apart.
  const keys = services.flatMap((s) => Object.keys(s.definition));
  const clash = keys.find((k, i) => keys.indexOf(k) !== i);
  if (clash) throw new Error(`proto fake: method ${clash} is defined by two of its services`);
  for (const service of services) {
    const unknown = Object.keys(service.overrides).find((k) => !(k in service.definition));
    if (unknown) throw new Error(`proto fake: ${unknown} is not a method of ${serviceName(service.definition)}`);
  }

  const handle = await startGrpcServer({
    name: opts.name ?? serviceName(definition),
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    maxMessageBytes: opts.maxMessageBytes,
    register: (server) => {
      for (const service of services) server.addService(service.definition, implement(service, log, opts.missing));
    },
  });
  if (opts.serving !== false) handle.setServing();

  return {
    address: `127.0.0.1:${handle.port}`,
    handle,
    log,
    calls: log.calls,
    failNext: (method, err) => log.failNext(method, err),
    lastCall: <T = unknown>(method: string) => log.lastCall<T>(method),
    stop: () => handle.shutdown(100),
  };
}
