import type { Logger } from '@exchange/platform';

/** One spec area of a gRPC service: its slice's handlers, given the service's use cases. */
export interface ServiceArea<S, H extends object> {
  name: string;
  handlers: (services: S, logger: Logger) => H;
}

export function serviceArea<S, H extends object>(name: string, handlers: (services: S, logger: Logger) => H): ServiceArea<S, H> {
  return { name, handlers };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every area's handlers together (an intersection, so assigning it to `XServiceServer` fails to compile when an RPC has no area). */
export type MergedHandlers<A extends ReadonlyArray<ServiceArea<never, object>>> = UnionToIntersection<ReturnType<A[number]['handlers']>>;

/**
 * Merges the handlers of a service's areas (its AREAS table). Type the result as the generated
 * `…ServiceServer` so a missing RPC is a compile error rather than a runtime UNIMPLEMENTED; two
 * areas claiming one RPC throw here, at start-up.
 */
export function mergeAreaHandlers<S, const A extends ReadonlyArray<ServiceArea<S, object>>>(areas: A, services: S, logger: Logger): MergedHandlers<A> {
  const merged: Record<string, unknown> = {};
  const owner = new Map<string, string>();
  for (const area of areas) {
    for (const [rpc, handler] of Object.entries(area.handlers(services, logger))) {
      const previous = owner.get(rpc);
      if (previous !== undefined) throw new Error(`RPC ${rpc} is handled by two areas: ${previous} and ${area.name}`);
      owner.set(rpc, area.name);
      merged[rpc] = handler;
    }
  }
  return merged as MergedHandlers<A>;
}
