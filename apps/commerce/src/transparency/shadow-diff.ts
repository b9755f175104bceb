import { formatAmount } from '@exchange/platform';
import type { CheckoutStatus, UcpMessage } from '../domain/ucp-types';
import type { ApprovalState } from '../checkout/session.model';

// Shadow compare (domain, pure): what a shadow session would have bought against the live session
// of the same buyer, merchant and cart. A session is reduced to a snapshot; the diff lists every
// field whose values differ, in a fixed order.

/** The merchant message codes that say a line cannot be bought (sandbox merchant: pricing.ts). */
export const UNAVAILABLE_CODES: ReadonlySet<string> = new Set(['out_of_stock', 'item_unavailable']);

export interface SessionSnapshot {
  commerceSessionId: string;
  status: CheckoutStatus;
  approval: ApprovalState;
  currency: string;
  total: bigint;
  listTotal: bigint;
  savings: bigint;
  discountCodes: string[];
  unavailableItems: string[];
  createdAt: Date;
}

/** What a snapshot is made of (a checkout_sessions row, its messages and the buyer's line items). */
export interface SessionFacts {
  commerceSessionId: string;
  buyerAgentId: string;
  merchantDomain: string;
  status: CheckoutStatus;
  approval: ApprovalState;
  currency: string;
  total: bigint;
  listTotal: bigint;
  discountCodes: string[];
  lineItems: Array<Record<string, unknown>>;
  messages: UcpMessage[];
  createdAt: Date;
}

const LINE_PATH = /^\$\.line_items\[(\d+)\]/;

/**
 * Item ids the merchant's messages name unavailable: a message with an unavailable code whose
 * path `$.line_items[i]` points at the buyer's line i (the merchant answers in request order),
 * sorted, once each.
 */
export function unavailableItems(messages: readonly UcpMessage[], lineItems: ReadonlyArray<Record<string, unknown>>): string[] {
  const ids = new Set<string>();
  for (const m of messages) {
    if (typeof m?.code !== 'string' || !UNAVAILABLE_CODES.has(m.code)) continue;
    const match = LINE_PATH.exec(typeof m.path === 'string' ? m.path : '');
    const line = match ? lineItems[Number(match[1])] : undefined;
    const id = (line?.['item'] as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') ids.add(id);
  }
  return [...ids].sort();
}

export function snapshotOf(f: SessionFacts): SessionSnapshot {
  const savings = f.listTotal > f.total ? f.listTotal - f.total : 0n;
  return {
    commerceSessionId: f.commerceSessionId,
    status: f.status,
    approval: f.approval,
    currency: f.currency,
    total: f.total,
    listTotal: f.listTotal,
    savings,
    discountCodes: [...f.discountCodes].map((c) => c.toUpperCase()).sort(),
    unavailableItems: unavailableItems(f.messages, f.lineItems),
    createdAt: f.createdAt,
  };
}

export interface ShadowDifference {
  field: 'status' | 'approval' | 'currency' | 'total' | 'list_total' | 'savings' | 'discount_codes' | 'unavailable_items';
  shadow: string;
  live: string;
}

const FIELDS: ReadonlyArray<[ShadowDifference['field'], (s: SessionSnapshot) => string]> = [
  ['status', (s) => s.status],
  ['approval', (s) => s.approval],
  ['currency', (s) => s.currency],
  ['total', (s) => formatAmount(s.total)],
  ['list_total', (s) => formatAmount(s.listTotal)],
  ['savings', (s) => formatAmount(s.savings)],
  ['discount_codes', (s) => s.discountCodes.join(',')],
  ['unavailable_items', (s) => s.unavailableItems.join(',')],
];

/** Every field whose value differs between the shadow and the live snapshot (as text; lists comma-joined). */
export function diffSnapshots(shadow: SessionSnapshot, live: SessionSnapshot): ShadowDifference[] {
  const out: ShadowDifference[] = [];
  for (const [field, text] of FIELDS) {
    const a = text(shadow);
    const b = text(live);
    if (a !== b) out.push({ field, shadow: a, live: b });
  }
  return out;
}

/** The candidate created closest in time to `at`; a tie goes to the earlier one, then the smaller id. */
export function closestInTime<T extends { createdAt: Date; commerceSessionId: string }>(at: Date, candidates: readonly T[]): T | null {
  let best: T | null = null;
  let bestGap = Infinity;
  for (const c of candidates) {
    const gap = Math.abs(c.createdAt.getTime() - at.getTime());
    const better =
      best === null ||
      gap < bestGap ||
      (gap === bestGap && (c.createdAt.getTime() < best.createdAt.getTime() || (c.createdAt.getTime() === best.createdAt.getTime() && c.commerceSessionId < best.commerceSessionId)));
    if (better) {
      best = c;
      bestGap = gap;
    }
  }
  return best;
}
