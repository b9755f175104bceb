import {
  Client,
  connectivityState,
  credentials,
  Metadata,
  status,
  type ChannelOptions,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { ACTOR_METADATA, AGENT_ID_METADATA, REQUEST_ID_METADATA, TRACE_ID_METADATA, type CallContext } from './call-context';
import { readErrorDetails } from './error-trailer';
import { callInProcess, localTarget, loopbackTarget, type ClientLimits, type ClientMethod, type LoopbackTarget } from './grpc/in-process';
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
  // Nothing reads channelz; its per-call bookkeeping cost ~5% of a call's CPU (issue 20).
  'grpc.enable_channelz': 0,
};

/** A client's channel: the grpc-js client, its target when on loopback (loopbackTarget) and its message limits when it sets any. */
export interface UnaryChannel extends ClientLimits {
  client: Client;
  loopback: LoopbackTarget | undefined;
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
  const local = localTarget(channel.loopback, method.path);
  // A closed client refuses every call ("Channel has been shut down"): in process too.
  if (local && channel.client.getChannel().getConnectivityState(false) !== connectivityState.SHUTDOWN) {
    return callInProcess(local, method, req, () => toMetadata(callOpts), deadline, channel);
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

/**
 * A promise client over one channel (one grpc-js Client) for every method of a ts-proto (or
 * proto-loader) service definition. Every call carries a deadline and the caller's metadata.
 */
export function createServiceClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  opts: { defaultDeadlineMs?: number } = {},
): PromiseClient<D> {
  const defaultDeadlineMs = opts.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS;
  const client = new Client(address, credentials.createInsecure(), CHANNEL_OPTIONS);
  const channel: UnaryChannel = { client, loopback: loopbackTarget(address) };
  const methods: Record<string, unknown> = {
    close: () => client.close(),
  };
  for (const [key, method] of Object.entries(definition)) {
    if (method.requestStream || method.responseStream) continue; // only unary RPCs are used
    methods[key] = (req: unknown, callOpts?: CallOptions) => callUnary(channel, method, req, callOpts, defaultDeadlineMs);
  }
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
