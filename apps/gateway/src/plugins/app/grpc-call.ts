import type { CallOptions } from '@exchange/platform';

// The types the gateway's own clients with streaming RPCs (registry, telemetry) share; their
// unary methods come from @exchange/platform's unaryMethodsOf, as createServiceClient's do.

/** The unary methods of a ts-proto service definition, as promises. */
export type UnaryMethods<Def> = {
  [K in keyof Def as Def[K] extends { requestStream: false; responseStream: false } ? K : never]: Def[K] extends {
    requestSerialize: (v: infer Req) => Buffer;
    responseDeserialize: (b: Buffer) => infer Res;
  }
    ? (req: Req, opts?: CallOptions) => Promise<Res>
    : never;
};

/** grpc.health.v1 Check (for /health; in process in all-in-one, like every unary call). */
export interface HealthMethod {
  path: string;
  requestSerialize: (v: { service: string }) => Buffer;
  responseDeserialize: (b: Buffer) => { status: string };
}
