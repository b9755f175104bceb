import type { Stack } from './stack';

// The run's shared stack, `bootStack({ shared: true })`: booting a whole exchange is most of a test file's
// time, and files that act only through their own fresh agents can use one exchange in turn (the suite
// runs in band). Jest gives every test file its own module registry and a copy of `process`, so the stack
// cannot live in a module: shared-stack.setup.js (globalSetup, jest's own process) puts a booter on the real
// `process`, which each copy keeps by reference (functions are not copied). The stack boots on first use —
// a run without a shared file boots none — outside any file's sandbox, and shared-stack.teardown.js stops it.
export const SHARED_STACK_KEY = '__exchangeE2eSharedStack';

/**
 * Every file reaches the shared stack from 127.0.0.1 with the same operator token, so the budgets keyed on
 * those (anonymous requests, failed authentications, casefile verifications per IP; requests per operator
 * token) would be spent across files: a 429 in one file for what others did. A private stack gives each
 * file fresh ones; the shared stack lifts them instead. Files that test those budgets set their own (private).
 * Budgets per agent keep their defaults: each file's agents are its own.
 */
export const SHARED_STACK_ENV: Record<string, string> = {
  RATE_LIMIT_ANONYMOUS: '1000000',
  RATE_LIMIT_AUTH_FAILURES: '1000000',
  RATE_LIMIT_CASEFILE_VERIFY: '1000000',
  RATE_LIMIT_OPERATOR: '1000000',
};

/**
 * Stops the shared stack, if up, before a file boots its own: two exchanges on one NATS server would split
 * the messages of its durable consumers (telemetry, workflows, the market's fixture index) between them.
 * A later shared file boots a fresh one (shared-stack.sequencer.js orders the files so that none does).
 */
export async function releaseSharedStack(): Promise<void> {
  const acquire = (process as unknown as Record<string, unknown>)[SHARED_STACK_KEY] as { stop?: () => Promise<void> } | undefined;
  await acquire?.stop?.();
}

/** The shared stack (its stop() does nothing: the run stops it at the end), or null without the globalSetup. */
export async function acquireSharedStack(): Promise<Stack | null> {
  const acquire = (process as unknown as Record<string, unknown>)[SHARED_STACK_KEY];
  // Another jest config, or jest workers instead of --runInBand: each file boots its own.
  if (typeof acquire !== 'function') return null;
  const stack = (await acquire()) as Stack;
  return { ...stack, stop: () => Promise.resolve() };
}
