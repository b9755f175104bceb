/**
 * A value the market's own rules guarantee (an awarded contract has a seller, price and hold; a
 * row read under the lock that was there before it). Missing means a bug, not a client error.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`invariant broken: ${what} is missing`);
  return value;
}
