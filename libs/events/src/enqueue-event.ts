import type pg from 'pg';
import type { EventEnvelope } from './envelope';

/** What enqueueEvent needs; a Prisma interactive-transaction client satisfies it. */
export interface SqlExecutor {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

/**
 * Writes the event to the outbox. Call it inside the transaction of the state change it
 * describes, so the event exists exactly when the change commits.
 */
export async function enqueueEvent(tx: SqlExecutor, event: EventEnvelope): Promise<void> {
  await tx.$executeRaw`INSERT INTO outbox_events (id, type, payload) VALUES (${event.id}, ${event.type}, ${JSON.stringify(event)}::jsonb)`;
}

/** A SqlExecutor over a node-postgres client (raw-SQL services, tests): template values become $n parameters. */
export function pgSqlExecutor(client: pg.ClientBase): SqlExecutor {
  return {
    async $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number> {
      const text = query.reduce((sql, part, i) => (i === 0 ? part : `${sql}$${i}${part}`), '');
      const result = await client.query(text, values);
      return result.rowCount ?? 0;
    },
  };
}
