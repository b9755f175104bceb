/** PostgreSQL serialization failure and deadlock: safe to run the whole transaction again. */
const RETRYABLE = new Set(['40001', '40P01']);
export const MAX_ATTEMPTS = 5;

export function isRetryable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && RETRYABLE.has((err as { code?: string }).code ?? '');
}

/** Full-jitter exponential backoff: random in [0, 5 ms · 2^attempt). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * 5 * 2 ** attempt);
}

/**
 * Runs `work` again on 40001/40P01, at most MAX_ATTEMPTS times in all, so clients never see
 * them; any other error (or the last retryable one) propagates.
 */
export async function withRetries<T>(work: () => Promise<T>, onRetry?: (err: unknown, attempt: number) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isRetryable(err) || attempt >= MAX_ATTEMPTS) throw err;
      onRetry?.(err, attempt);
      await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
    }
  }
}
