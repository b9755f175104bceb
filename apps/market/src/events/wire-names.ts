import type { WireEnum } from '@exchange/proto';

// The market's enums go proto ⇄ domain through the generated wire tables of @exchange/proto
// (marketV1Wire, …): that works because each domain name type IS the proto's wire-name union.
// Domain files may not import proto, so the transport/data file that uses a table types it with
// the domain's names through DomainEnum, which fails to compile as soon as the domain or the
// .proto gains, loses or renames a name:
//   export const contractStatus: DomainEnum<typeof marketV1Wire.contractStatus, ContractStatus> = marketV1Wire.contractStatus;

/** `true` when A and B are the same set of names, `false` otherwise. */
export type SameNames<A extends string, B extends string> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The generated table T as a table of the domain's names D; `never` (nothing assigns to it) unless D is exactly T's wire names. */
export type DomainEnum<T, D extends string> =
  T extends WireEnum<infer P, infer W> ? (SameNames<D, W> extends true ? WireEnum<P, D> : never) : never;
