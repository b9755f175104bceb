import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { commerceV1Events } from '@exchange/proto';
import type pg from 'pg';
import { withTransaction } from '@exchange/db';
import { appendEvidence } from '../evidence/evidence.repo';
import type { EvidenceInput } from '../evidence/evidence.model';

// Received order webhooks: one row per (merchant, Webhook-Id) so a retried delivery is kept once,
// the delivery itself as evidence of the session whose merchant checkout the order names.

export const ORDER_WEBHOOK_RECEIVED = 'exchange.commerce.order.webhook_received';

export interface StoredDelivery {
  commerceSessionId: string | null;
  duplicate: boolean;
}

export interface DeliveryInput {
  merchantDomain: string;
  webhookId: string;
  orderId: string;
  checkoutId: string;
  evidence: EvidenceInput;
  now: Date;
}

/**
 * Keeps one delivery: dedupes on (merchant, webhook id), finds the session by the merchant's checkout
 * id, appends the evidence, fills the session's order id when it had none, and writes the event —
 * one transaction. A delivery naming no session of ours is still remembered (answered, not kept as evidence).
 */
export async function storeDelivery(pool: pg.Pool, input: DeliveryInput): Promise<StoredDelivery> {
  return withTransaction(pool, async (client) => {
    const inserted = await client.query(
      `INSERT INTO order_webhooks (merchant_domain, webhook_id, order_id, received_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_domain, webhook_id) DO NOTHING RETURNING 1`,
      [input.merchantDomain, input.webhookId, input.orderId, input.now],
    );
    if (inserted.rowCount === 0) {
      const { rows } = await client.query<{ commerce_session_id: string | null }>(
        'SELECT commerce_session_id FROM order_webhooks WHERE merchant_domain = $1 AND webhook_id = $2',
        [input.merchantDomain, input.webhookId],
      );
      return { commerceSessionId: rows[0]?.commerce_session_id ?? null, duplicate: true };
    }
    const session = await client.query<{ commerce_session_id: string }>(
      'SELECT commerce_session_id FROM checkout_sessions WHERE merchant_domain = $1 AND merchant_checkout_id = $2 AND mode = $3',
      [input.merchantDomain, input.checkoutId, 'live'],
    );
    const sessionId = session.rows[0]?.commerce_session_id ?? null;
    if (sessionId === null) return { commerceSessionId: null, duplicate: false };
    const [record] = await appendEvidence(client, sessionId, [input.evidence], input.now);
    await client.query('UPDATE order_webhooks SET commerce_session_id = $3, evidence_id = $4 WHERE merchant_domain = $1 AND webhook_id = $2', [
      input.merchantDomain,
      input.webhookId,
      sessionId,
      record.evidenceId,
    ]);
    await client.query('UPDATE checkout_sessions SET order_id = COALESCE(order_id, $2), updated_at = $3 WHERE commerce_session_id = $1', [sessionId, input.orderId, input.now]);
    const data = commerceV1Events.OrderWebhookReceived.toJSON({
      commerceSessionId: sessionId,
      merchantDomain: input.merchantDomain,
      orderId: input.orderId,
      webhookId: input.webhookId,
      evidenceId: record.evidenceId,
    });
    await enqueueEvent(pgSqlExecutor(client), newEvent({ type: ORDER_WEBHOOK_RECEIVED, source: 'commerce', subjectId: sessionId, data }));
    return { commerceSessionId: sessionId, duplicate: false };
  });
}
