// Crash points of the purchase saga (COMMERCE_FAULT_INJECTION, tests only): the process exits right
// after the named step committed, so the kill tests can prove the recovery worker finishes it.
export const FAULT_POINTS = ['after_reserve', 'after_hold', 'after_merchant_complete', 'after_settle'] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

export function faultPointsFrom(value: string | undefined): ReadonlySet<FaultPoint> {
  return new Set(FAULT_POINTS.filter((p) => p === value));
}
