import type { EventEnvelope } from '../src/envelope';

/**
 * A batch handler that records each call's event ids and throws once (a database down once), on
 * the first call holding at least `minEvents` events: the bus must deliver that whole batch again.
 * `failedAt` is that call's index in `calls` (-1 until it happened).
 */
export function failingFirstBatch(minEvents = 1): { calls: string[][]; readonly failedAt: number; handler: (events: EventEnvelope[]) => Promise<void> } {
  const calls: string[][] = [];
  let failedAt = -1;
  return {
    calls,
    get failedAt() {
      return failedAt;
    },
    handler: async (events) => {
      calls.push(events.map((e) => e.id));
      if (failedAt === -1 && events.length >= minEvents) {
        failedAt = calls.length - 1;
        throw new Error('database down');
      }
    },
  };
}
