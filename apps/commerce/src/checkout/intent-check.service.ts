import { errors } from '@exchange/platform';
import type pg from 'pg';
import type { UcpCheckout } from '../domain/ucp-types';
import type { EvidenceInput } from '../evidence/evidence.model';
import type { IntentRecord } from '../intents/intent.model';
import { intentEvidenceContent } from '../intents/intent-evidence';
import { checkIntentBeforeMerchant, checkIntentSession } from '../intents/intent-rules';
import { getIntent } from '../intents/intents.repo';
import { ORDER_CAPABILITY } from '../merchants/platform-profile';
import type { CheckoutDeps } from './checkout-support.service';

// The intent side of checkout create/update/complete: the session's intent loaded once with the
// facts its rules need (intents/intent-rules.ts), checked on what the buyer asks for before the
// merchant is called and on what the merchant answered after.

/** A session's intent and whether its merchant can report refunds (only asked when the intent requires it). */
export interface BoundIntent {
  intent: IntentRecord;
  merchantReportsOrders: boolean;
}

interface Party {
  buyerAgentId: string;
  merchantDomain: string;
}

/** The intent or 404 intent_not_found. */
async function loadIntent(db: pg.Pool | pg.PoolClient, intentId: string): Promise<IntentRecord> {
  const intent = intentId.length > 200 ? null : await getIntent(db, intentId);
  if (intent === null) throw errors.notFound('intent', intentId);
  return intent;
}

/** The merchant's profile advertises dev.ucp.shopping.order: it reports an order's refunds and returns. */
async function reportsOrders(deps: Pick<CheckoutDeps, 'merchants'>, domain: string): Promise<boolean> {
  const view = await deps.merchants.profile(domain);
  const entries = (view.profile.ucp['capabilities'] as Record<string, unknown> | undefined)?.[ORDER_CAPABILITY];
  return Array.isArray(entries) && entries.length > 0;
}

/** Item ids of the buyer's requested lines (checkout-input.ts checked each has one). */
function skusOf(lines: ReadonlyArray<Record<string, unknown>>): string[] {
  return lines.map((l) => String((l['item'] as { id?: unknown } | undefined)?.id ?? ''));
}

/** Loads the intent the session names (none: null) with its merchant fact. */
export async function bindIntent(deps: Pick<CheckoutDeps, 'pool' | 'merchants'>, intentId: string | null | undefined, merchantDomain: string): Promise<BoundIntent | null> {
  if (intentId === null || intentId === undefined || intentId === '') return null;
  const intent = await loadIntent(deps.pool, intentId);
  const merchantReportsOrders = intent.requiresRefundability ? await reportsOrders(deps, merchantDomain) : true;
  return { intent, merchantReportsOrders };
}

/** Before the merchant call: the 403 of a request that already breaks the intent (nothing is sent or stored). */
export function intentAllowsRequest(bound: BoundIntent | null, s: Party, lineItems: ReadonlyArray<Record<string, unknown>>, now: Date): void {
  if (bound === null) return;
  checkIntentBeforeMerchant(bound.intent, { ...s, skus: skusOf(lineItems), merchantReportsOrders: bound.merchantReportsOrders, now });
}

/** After the merchant answered (or on complete, the stored answer): every rule on its lines, currency and total. */
export function intentAllowsSession(bound: BoundIntent | null, s: Party, checkout: Pick<UcpCheckout, 'line_items' | 'currency'>, total: bigint, now: Date): void {
  if (bound === null) return;
  checkIntentSession(bound.intent, {
    ...s,
    skus: checkout.line_items.map((l) => l.item.id),
    merchantReportsOrders: bound.merchantReportsOrders,
    currency: checkout.currency,
    total,
    now,
  });
}

/** The evidence item binding a new session to its intent (kind "intent", the intent record as content). */
export function intentEvidence(bound: BoundIntent): EvidenceInput {
  return { kind: 'intent', operation: 'intent', content: intentEvidenceContent(bound.intent), schemaResult: 'not_applicable' };
}
