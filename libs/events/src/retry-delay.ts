/** Exponential backoff: base, 2·base, 4·base … capped at max. `attempt` starts at 1. */
export function retryDelayMs(attempt: number, baseMs = 200, maxMs = 30_000): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(baseMs * 2 ** exponent, maxMs);
}
