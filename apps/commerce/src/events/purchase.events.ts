import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { commerceV1Events } from '@exchange/proto';
import type pg from 'pg';
import { toProtoPurchase, toProtoSession } from '../checkout/checkout.events';
import { getSession } from '../checkout/sessions.repo';
import { appendLifecycle } from '../lifecycle/lifecycle.repo';
import { enqueueMandateEvent } from '../mandates/mandates.events';
import { getMandate } from '../mandates/mandates.repo';
import type { PurchaseRecord } from '../checkout/session.model';

// Outbox writers of the purchase saga (call them inside the transaction of the step). They live
// outside src/saga/ because they encode proto (data layer); the session's proto form is
// checkout's (toProtoSession), read back inside the same transaction so the event shows the
// state the step committed.

const SOURCE = 'commerce';
const SYSTEM_ACTOR = 'system:commerce';

/** exchange.commerce.checkout.completed | .payment_failed with CheckoutChanged {session}, and the session's lifecycle row. */
export async function emitPaymentOutcome(client: pg.PoolClient, verb: 'completed' | 'payment_failed', sessionId: string): Promise<void> {
  const session = await getSession(client, sessionId);
  if (!session) throw new Error(`purchase event: no session ${sessionId}`);
  await appendLifecycle(client, verb, session, SYSTEM_ACTOR);
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({
      type: `exchange.commerce.checkout.${verb}`,
      source: SOURCE,
      subjectId: sessionId,
      actor: SYSTEM_ACTOR,
      data: commerceV1Events.CheckoutChanged.toJSON({ session: toProtoSession(session) }),
    }),
  );
}

/** exchange.commerce.purchase.recorded with PurchaseRecorded {purchase}. */
export async function emitPurchaseRecorded(client: pg.PoolClient, p: PurchaseRecord): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({
      type: 'exchange.commerce.purchase.recorded',
      source: SOURCE,
      subjectId: p.dealId,
      actor: SYSTEM_ACTOR,
      data: commerceV1Events.PurchaseRecorded.toJSON({ purchase: toProtoPurchase(p) }),
    }),
  );
}

/** exchange.commerce.mandate.status_changed when a settlement exhausted the mandate (its state as committed). */
export async function emitMandateExhausted(client: pg.PoolClient, mandateId: string, now: Date): Promise<void> {
  const mandate = await getMandate(client, mandateId);
  if (!mandate) throw new Error(`purchase event: no mandate ${mandateId}`);
  await enqueueMandateEvent(client, 'status_changed', mandate, now, SYSTEM_ACTOR);
}
