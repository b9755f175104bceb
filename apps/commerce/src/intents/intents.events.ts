import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { formatAmount } from '@exchange/platform';
import { commerceV1, type commerceV1 as C } from '@exchange/proto';
import type pg from 'pg';
import type { IntentRecord } from './intent.model';

// Intent → proto (the RPC answer and the event payload share it) and the outbox writer: call it
// inside the transaction that inserts the intent. Payload: {intent: Intent as proto JSON}.

export function toProtoIntent(i: IntentRecord): C.Intent {
  return {
    intentId: i.intentId,
    agentId: i.agentId,
    description: i.description,
    merchants: i.merchants,
    skus: i.skus,
    budget: { amount: formatAmount(i.budget), currency: i.currency },
    requiresRefundability: i.requiresRefundability,
    expiresAt: i.expiresAt,
    createdAt: i.createdAt,
  };
}

/** exchange.commerce.intent.created. `actor`: "agent:<id>" or "operator". */
export async function enqueueIntentCreated(client: pg.ClientBase, i: IntentRecord, actor: string): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({ type: 'exchange.commerce.intent.created', source: 'commerce', subjectId: i.intentId, actor, data: { intent: commerceV1.Intent.toJSON(toProtoIntent(i)) } }),
  );
}
