import type { EventEnvelope } from '../src/envelope';

/**
 * A batch handler that records each call's event ids and throws on the first call only (a
 * database down once): the bus must deliver that whole batch again.
 */
export function failingFirstBatch(): { calls: string[][]; handler: (events: EventEnvelope[]) => Promise<void> } {
  const calls: string[][] = [];
  return {
    calls,
    handler: async (events) => {
      calls.push(events.map((e) => e.id));
      if (calls.length === 1) throw new Error('database down');
    },
  };
}
