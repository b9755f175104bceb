import {
  Client,
  credentials,
  Metadata,
  status,
  type ChannelOptions,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { ACTOR_METADATA, AGENT_ID_METADATA, REQUEST_ID_METADATA, TRACE_ID_METADATA, type CallContext } from './call-context';
import { readErrorDetails } from './error-trailer';
import { callInProcess, localServer, loopbackTarget, type ClientMethod, type LoopbackTarget, type MessageLimits } from './grpc/in-process';
import { DomainError, ERROR_CODE_METADATA, ERROR_REPLAYED_METADATA } from './errors';

export interface CallOptions {
  /** Relative deadline for this call; defaults to the client's `defaultDeadlineMs`. */
  deadlineMs?: number;
  requestId?: string;
  traceId?: string;
  actor?: string;
  agentId?: string;
}

export type PromiseClient<D> = {
  [K in keyof D]: D[K] extends {
    requestSerialize: (v: infer Req) => Buffer;
    responseDeserialize: (b: Buffer) => infer Res;
  }
    ? (req: Req, opts?: CallOptions) => Promise<Res>
    : never;
} & { close(): void };

export const DEFAULT_DEADLINE_MS = 5_000;

const CHANNEL_OPTIONS: ChannelOptions = {
  // Keepalive finds a dead peer (e.g. a pod gone without FIN) within ~40 s instead of hanging.
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  // Nothing reads channelz, and it keeps per-call bookkeeping (counters, timestamps) on every call.
  'grpc.enable_channelz': 0,
};

/**
 * A client's channel: the grpc-js client, its target when on loopback (loopbackTarget), its
 * message limits when it sets any, and whether it was closed (closeChannel: a closed client
 * refuses every call, in process too).
 */
export interface UnaryChannel extends MessageLimits {
  client: Client;
  loopback: LoopbackTarget | undefined;
  closed?: boolean;
}

/**
 * One unary call with the caller's metadata and a deadline: on the channel, or in process when
 * its loopback port is served by a gRPC server of this process and in-process calls are on (the
 * all-in-one exchange; grpc/in-process.ts).
 */
export function callUnary(
  channel: UnaryChannel,
  method: ClientMethod,
  req: unknown,
  callOpts: CallOptions | undefined,
  defaultDeadlineMs: number,
): Promise<unknown> {
  const deadline = Date.now() + (callOpts?.deadlineMs ?? defaultDeadlineMs);
  const server = channel.closed ? undefined : localServer(channel.loopback);
  const local = server?.methods.get(method.path);
  if (server && local) {
    let metadata: Metadata;
    try {
      metadata = toMetadata(callOpts);
    } catch (err) {
      return Promise.reject(err); // as over gRPC: Metadata.set refused a value
    }
    return callInProcess(server, local, method, req, metadata, deadline, channel);
  }
  return new Promise((resolve, reject) => {
    channel.client.makeUnaryRequest(
      method.path,
      method.requestSerialize as (value: unknown) => Buffer,
      method.responseDeserialize,
      req,
      toMetadata(callOpts),
      { deadline },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

/** Closes the channel's client; its calls are refused from then on, in process too. */
export function closeChannel(channel: UnaryChannel): void {
  channel.closed = true;
  channel.client.close();
}

/** Every unary method of `definition` on `channel`, keyed as in the definition, as promises. */
export function unaryMethodsOf(channel: UnaryChannel, definition: Record<string, ClientMethod>, defaultDeadlineMs: number): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(definition)) {
    if (method.requestStream || method.responseStream) continue;
    methods[key] = (req: unknown, callOpts?: CallOptions) => callUnary(channel, method, req, callOpts, defaultDeadlineMs);
  }
  return methods;
}

/**
 * A promise client over one channel (one grpc-js Client) for every unary method of a ts-proto (or
 * proto-loader) service definition. Every call carries a deadline and the caller's metadata.
 */
export function createServiceClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  opts: { defaultDeadlineMs?: number } = {},
): PromiseClient<D> {
  const client = new Client(address, credentials.createInsecure(), CHANNEL_OPTIONS);
  const channel: UnaryChannel = { client, loopback: loopbackTarget(address) };
  const methods = unaryMethodsOf(channel, definition, opts.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS);
  methods.close = () => closeChannel(channel);
  return methods as PromiseClient<D>;
}

/** The caller's request id, trace, actor and acting agent as gRPC metadata (every client of the exchange's services). */
export function toMetadata(opts: CallOptions | undefined): Metadata {
  const metadata = new Metadata();
  if (!opts) return metadata;
  if (opts.requestId) metadata.set(REQUEST_ID_METADATA, opts.requestId);
  if (opts.traceId) metadata.set(TRACE_ID_METADATA, opts.traceId);
  if (opts.actor) metadata.set(ACTOR_METADATA, opts.actor);
  if (opts.agentId) metadata.set(AGENT_ID_METADATA, opts.agentId);
  return metadata;
}

/** Call options that forward a handler's request id, trace, actor and agent downstream. */
export function callOptionsFrom(ctx: CallContext, deadlineMs?: number): CallOptions {
  return {
    requestId: ctx.requestId,
    traceId: ctx.traceId,
    actor: ctx.actor ?? undefined,
    agentId: ctx.agentId ?? undefined,
    deadlineMs,
  };
}

export interface GrpcErrorInfo {
  grpcCode: status;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  /** The failure is a stored outcome replayed for a repeated idempotency key. */
  replayed?: boolean;
}

function isServiceError(err: unknown): err is ServiceError {
  return typeof err === 'object' && err !== null && typeof (err as ServiceError).code === 'number' && 'metadata' in err;
}

/**
 * The problem code, message and details of a failed call. Falls back to the lowercase status
 * name (e.g. `unavailable`, `deadline_exceeded`) when the server sent no `x-error-code`.
 */
export function errorInfoFromGrpc(err: unknown): GrpcErrorInfo {
  if (err instanceof DomainError) {
    return { grpcCode: err.grpcCode, code: err.code, message: err.message, details: err.details, ...(err.replayed ? { replayed: true } : {}) };
  }
  if (!isServiceError(err)) {
    return { grpcCode: status.INTERNAL, code: 'internal', message: 'internal error' };
  }
  const metadata = err.metadata instanceof Metadata ? err.metadata : undefined;
  const code = metadata?.get(ERROR_CODE_METADATA)[0];
  const info: GrpcErrorInfo = {
    grpcCode: err.code,
    code: typeof code === 'string' && code !== '' ? code : (status[err.code] ?? 'unknown').toLowerCase(),
    message: err.details ?? err.message,
  };
  if (metadata?.get(ERROR_REPLAYED_METADATA)[0] === 'true') info.replayed = true;
  const details = readErrorDetails(metadata);
  if (details) info.details = details;
  return info;
}
