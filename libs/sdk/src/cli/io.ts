// What the CLI touches outside itself, injectable so tests run it in-process.
import type { FetchLike } from '../transport';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Base for relative file paths; defaults to process.cwd(). */
  cwd?: string;
  fetch?: FetchLike;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}
