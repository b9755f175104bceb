import { realServicesRequired } from './real-services';

/**
 * `describe` that runs only when `variable` names a reachable service URL. Without it the block
 * is skipped, or fails when REQUIRE_REAL_SERVICES=1 so CI cannot silently skip it.
 */
function describeWithService(variable: string, name: string, fn: (url: string) => void): void {
  const url = process.env[variable];
  if (url) {
    describe(name, () => fn(url));
    return;
  }
  if (realServicesRequired()) {
    describe(name, () => {
      it(`requires ${variable} (REQUIRE_REAL_SERVICES=1)`, () => {
        throw new Error(`${variable} is not set but REQUIRE_REAL_SERVICES=1: this suite must run against a real service`);
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: ${variable} not set)`, () => fn(`unset://${variable}`));
}

export function describeWithNats(name: string, fn: (natsUrl: string) => void): void {
  describeWithService('NATS_URL', name, fn);
}

export function describeWithRedis(name: string, fn: (redisUrl: string) => void): void {
  describeWithService('REDIS_URL', name, fn);
}
