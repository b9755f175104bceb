import { callUnary, unaryMethodsOf, type CallOptions, type ClientMethod, type UnaryChannel } from '@exchange/platform';

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

/** A method of a service definition, as the unary helpers take it. */
export type GrpcMethod = ClientMethod;

/** grpc.health.v1 Check (for /health; in process in all-in-one, like every unary call). */
export interface HealthMethod {
  path: string;
  requestSerialize: (v: { service: string }) => Buffer;
  responseDeserialize: (b: Buffer) => { status: string };
}

/** One unary method on `channel`: a promise, with the caller's metadata and a deadline. */
export const unaryCall =
  (channel: UnaryChannel, method: GrpcMethod, defaultDeadlineMs: number) =>
  (req: unknown, callOpts?: CallOptions): Promise<unknown> =>
    callUnary(channel, method, req, callOpts, defaultDeadlineMs);

export { unaryMethodsOf };
