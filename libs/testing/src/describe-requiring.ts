import { realServicesRequired } from './real-services';

/**
 * The one rule behind every describeWith* helper: run the block when what it needs is there;
 * otherwise skip it with the reason, or — under REQUIRE_REAL_SERVICES=1 (CI) — fail it, so a
 * suite can never be skipped silently where the real thing must be tested.
 */
export function describeRequiring<T>(name: string, needed: { available: T | null | undefined; missing: string }, fn: (value: T) => void): void {
  const { available, missing } = needed;
  if (available !== null && available !== undefined) {
    describe(name, () => fn(available));
    return;
  }
  if (realServicesRequired()) {
    describe(name, () => {
      it(`requires what is missing (REQUIRE_REAL_SERVICES=1): ${missing}`, () => {
        throw new Error(`${missing}, but REQUIRE_REAL_SERVICES=1: this suite must run for real`);
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: ${missing})`, () => fn(undefined as T));
}
