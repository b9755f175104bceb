import type { commonV1, WireEnum } from '@exchange/proto';

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

/** `required`, `enumToJson`, `iso`, `money` and `parsedJson` throwing the mapper's own contract error. */
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
    /** A timestamp the contract guarantees, as RFC 3339. */
    iso(date: Date | undefined, what: string): string {
      if (date === undefined) throw contractError(what);
      return date.toISOString();
    },
    /** An amount the contract guarantees, as `{amount, currency}`. */
    money(m: commonV1.Money | undefined, what: string): { amount: string; currency: string } {
      if (m === undefined) throw contractError(what);
      return { amount: m.amount, currency: m.currency };
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

/** Optional proto fields as REST shows them: absent → null. */
export const isoOrNull = (date: Date | undefined): string | null => (date ? date.toISOString() : null);
export const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
export const moneyOrNull = (m: commonV1.Money | undefined): { amount: string; currency: string } | null =>
  m ? { amount: m.amount, currency: m.currency } : null;
