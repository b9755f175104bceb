import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The CI guard itself: a suite that needs NATS is skipped on a bare machine, but FAILS when
// REQUIRE_REAL_SERVICES=1 and NATS_URL is missing (so CI cannot pass by silently skipping).
function runFixture(env: Record<string, string | undefined>) {
  const jestBin = require.resolve('jest/bin/jest');
  const config = join(__dirname, '..', 'jest.config.js');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  return spawnSync(
    process.execPath,
    [jestBin, '-c', config, '--testMatch', '**/fixtures/needs-nats.fixture.ts', '--globalSetup', '', '--globalTeardown', '', '--ci'],
    { env: childEnv, encoding: 'utf8', timeout: 120_000 },
  );
}

describe('describeWithNats under REQUIRE_REAL_SERVICES', () => {
  it('skips without NATS_URL on a bare machine', () => {
    const run = runFixture({ NATS_URL: undefined, REQUIRE_REAL_SERVICES: undefined });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/1 skipped/);
  });

  it('fails without NATS_URL when REQUIRE_REAL_SERVICES=1', () => {
    const run = runFixture({ NATS_URL: undefined, REQUIRE_REAL_SERVICES: '1' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('NATS_URL is not set, but REQUIRE_REAL_SERVICES=1');
  });

  it('runs the suite when NATS_URL is given', () => {
    const run = runFixture({ NATS_URL: 'nats://127.0.0.1:4222', REQUIRE_REAL_SERVICES: '1' });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/1 passed/);
  });
});
