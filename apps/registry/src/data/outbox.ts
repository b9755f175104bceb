import type pg from 'pg';
import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import type { Caller } from '../domain/caller';

// Outbox writers of every area go through here: call them inside the transaction of the change
// they report. Payloads are the JSON form of events.proto's messages; subjects
// exchange.registry.<entity>.<verb>.
export const REGISTRY_EVENT_SOURCE = 'registry';

export async function emit(client: pg.ClientBase, type: string, subjectId: string, data: unknown, caller: Caller): Promise<void> {
  await enqueueEvent(pgSqlExecutor(client), newEvent({ type, source: REGISTRY_EVENT_SOURCE, subjectId, actor: caller.actor, data }));
}
