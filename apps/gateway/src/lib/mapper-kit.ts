import type { WireEnum } from '@exchange/proto';

// What every proto → REST mapper shares: the contract checks on a backing service's answers.
// The enum tables themselves are generated (`@exchange/proto` *Wire). Pure functions, no I/O.

/**
 * The service answered without a field the contract guarantees (a bug there → 500 here).
 * Message `<service> returned no valid <what>`; each mapper names its own subclass.
 */
export class ServiceContractError extends Error {
  constructor(service: string, what: string) {
    super(`${service} returned no valid ${what}`);
    this.name = 'ServiceContractError';
  }
}

/** The market answered without a field the contract guarantees; shared by every market-backed area. */
export class MarketContractError extends ServiceContractError {
  constructor(what: string) {
    super('market', what);
    this.name = 'MarketContractError';
  }
}

/** Commerce answered without a field the contract guarantees; shared by the commerce and mandates areas. */
export class CommerceContractError extends ServiceContractError {
  constructor(what: string) {
    super('commerce', what);
    this.name = 'CommerceContractError';
  }
}

/** `required`, `enumToJson` and `parsedJson` throwing the mapper's own contract error. */
export function contractChecks(contractError: (what: string) => Error) {
  return {
    required<T>(value: T | undefined | null, what: string): T {
      if (value === undefined || value === null) throw contractError(what);
      return value;
    },
    /** The wire name of a proto enum value; UNSPECIFIED or an unknown number is a contract breach. */
    enumToJson<N extends string>(table: Pick<WireEnum<number, N>, 'toWire'>, value: number, what: string): N {
      const name = table.toWire(value);
      if (name === undefined) throw contractError(what);
      return name;
    },
    /** JSON text a service sends inside a proto field (payloads, schemas, details), parsed. */
    parsedJson(text: string, what: string): unknown {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw contractError(what);
      }
    },
  };
}
