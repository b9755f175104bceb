/**
 * A proto enum ⇄ its REST (wire) names. The tables are generated from the .proto files by
 * tools/codegen/wire-enums.ts (`HOLD_STATUS_ACTIVE` ⇄ `active`), so no mapper writes them by hand.
 * `*_UNSPECIFIED` and unknown numbers have no wire name.
 */
export interface WireEnum<P extends number, W extends string> {
  /** Wire names in proto order (without UNSPECIFIED), e.g. for a JSON Schema enum. */
  readonly names: readonly W[];
  /** The wire name of a proto value; undefined for UNSPECIFIED, UNRECOGNIZED or unknown numbers. */
  toWire(value: P | number | undefined): W | undefined;
  /** The proto value of a wire name; undefined for any other string. */
  fromWire(name: string | undefined): P | undefined;
  /** The proto value of a name the caller's type guarantees (a domain enum); throws if it is not one. */
  toProto(name: W): P;
}

export function wireEnum<P extends number, W extends string>(pairs: ReadonlyArray<readonly [P, W]>): WireEnum<P, W> {
  const toWire = new Map<number, W>(pairs.map(([p, w]) => [p, w]));
  const fromWire = new Map<string, P>(pairs.map(([p, w]) => [w, p]));
  return {
    names: Object.freeze(pairs.map(([, w]) => w)),
    toWire: (value) => (value === undefined ? undefined : toWire.get(value)),
    fromWire: (name) => (name === undefined ? undefined : fromWire.get(name)),
    toProto: (name) => {
      const value = fromWire.get(name);
      if (value === undefined) throw new Error(`"${String(name)}" is not one of ${pairs.map(([, w]) => w).join(', ')}`);
      return value;
    },
  };
}

/** `true` when A and B are the same set of names, `false` otherwise. */
export type SameNames<A extends string, B extends string> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * The generated table T seen with a service's domain names D: `never` (nothing assigns to it)
 * unless D is exactly T's wire names, so a domain or .proto that gains, loses or renames a name
 * fails to compile. A domain file may not import proto; the mapper or encoder that uses a table
 * types it: `const contractStatus: DomainEnum<typeof marketV1Wire.contractStatus, ContractStatus> = marketV1Wire.contractStatus;`
 */
export type DomainEnum<T, D extends string> =
  T extends WireEnum<infer P, infer W> ? (SameNames<D, W> extends true ? WireEnum<P, D> : never) : never;
