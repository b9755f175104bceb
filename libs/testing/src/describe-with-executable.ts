import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { realServicesRequired } from './real-services';

/** The absolute path of `command` (an absolute path, or a name looked up on PATH), if executable. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = isAbsolute(command) ? [command] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * `describe` that runs only when a program (Chromium, kubectl…) is installed. Without it the
 * block is skipped with the install hint, or fails when REQUIRE_REAL_SERVICES=1 (CI).
 */
export function describeWithExecutable(name: string, command: string, installHint: string, fn: (path: string) => void): void {
  const found = findExecutable(command);
  if (found) {
    describe(name, () => fn(found));
    return;
  }
  if (realServicesRequired()) {
    describe(name, () => {
      it(`requires ${command} (REQUIRE_REAL_SERVICES=1)`, () => {
        throw new Error(`${command} is not installed but REQUIRE_REAL_SERVICES=1: ${installHint}`);
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: ${command} not installed; ${installHint})`, () => fn(command));
}
