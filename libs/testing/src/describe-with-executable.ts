import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { describeRequiring } from './describe-requiring';

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

/** `describe` that runs only when a program (Chromium, kubectl…) is installed (see describeRequiring). */
export function describeWithExecutable(name: string, command: string, installHint: string, fn: (path: string) => void): void {
  describeRequiring(name, { available: findExecutable(command), missing: `${command} is not installed (${installHint})` }, fn);
}
