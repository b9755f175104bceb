import { callUnary, type CallOptions, type UnaryChannel } from '@exchange/platform';

// What the gateway's own clients with streaming RPCs (registry, telemetry) share: the caller's
// metadata and the unary methods as promises, as @exchange/platform's createServiceClient makes
// them (that client covers unary calls only).

/** The unary methods of a ts-proto service definition, as promises. */
export type UnaryMethods<Def> = {
  [K in keyof Def as Def[K] extends { requestStream: false; responseStream: false } ? K : never]: Def[K] extends {
    requestSerialize: (v: infer Req) => Buffer;
    responseDeserialize: (b: Buffer) => infer Res;
  }
    ? (req: Req, opts?: CallOptions) => Promise<Res>
    : never;
};

export interface GrpcMethod {
  path: string;
  requestStream?: boolean;
  responseStream?: boolean;
  requestSerialize: (v: never) => Buffer;
  responseDeserialize: (b: Buffer) => unknown;
}

/** grpc.health.v1 Check, carried by the service's own channel for /health. */
export interface HealthMethod {
  path: string;
  requestSerialize: (v: { service: string }) => Buffer;
  responseDeserialize: (b: Buffer) => { status: string };
}


/** One unary method on `channel`: a promise, with the caller's metadata and a deadline (in process in all-in-one). */
export const unaryCall =
  (channel: UnaryChannel, method: GrpcMethod, defaultDeadlineMs: number) =>
  (req: unknown, callOpts?: CallOptions): Promise<unknown> =>
    callUnary(channel, method, req, callOpts, defaultDeadlineMs);

/** Every unary method of `definition` on `channel`, keyed as in the definition. */
export function unaryMethodsOf(channel: UnaryChannel, definition: Record<string, GrpcMethod>, defaultDeadlineMs: number): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(definition)) {
    if (method.requestStream || method.responseStream) continue;
    methods[key] = unaryCall(channel, method, defaultDeadlineMs);
  }
  return methods;
}
