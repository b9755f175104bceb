import { enumField, field, isObject, objectField, stringField, stringsField, boolField, timeField } from './event-json';
import { typeParts, type StoreEvent } from './event';

// The facts reports read, folded from events (newest snapshot wins: ingest compares updated_at).
// Amounts stay decimal strings here; ingest turns them into micro-units (parseAmount).
// Statuses are lower-case wire names (`settled`, `completed`).

export interface ContractFact {
  contractId: string;
  buyerId: string;
  buyerPrivate: boolean;
  buyerAlias: string | null;
  sellerId: string | null;
  status: string;
  currency: string;
  budget: string;
  price: string | null;
  tags: string[];
  listingId: string | null;
  workflowRunId: string | null;
  sandbox: boolean;
  everDisputed: boolean;
  createdAt: Date;
  awardedAt: Date | null;
  settledAt: Date | null;
  endedAt: Date | null;
  updatedAt: Date;
}

/**
 * Whom a contract's fact says public events must hide: its buyer, when the buyer is private and
 * known (a fact whose buyer was never named hides nobody; a snapshot naming no buyer keeps the
 * stored one under the upsert, so it hides that one). The one definition of the rule: the
 * one-by-one path applies it to the stored row (ingest/event-store.repo.ts privateParties), the
 * batch to its in-memory replay (batch-plan.ts publicViews), the projection to the contract an
 * event carries (public-view.ts privatePartiesOf).
 */
export function hiddenBuyers(fact: Pick<ContractFact, 'buyerId' | 'buyerPrivate'> | undefined): string[] {
  return fact !== undefined && fact.buyerPrivate && fact.buyerId !== '' ? [fact.buyerId] : [];
}

export interface CheckoutFact {
  commerceSessionId: string;
  buyerAgentId: string;
  merchantDomain: string;
  status: string;
  currency: string;
  total: string;
  originContractId: string | null;
  originWorkflowRunId: string | null;
  createdAt: Date;
  endedAt: Date | null;
  updatedAt: Date;
}

export interface PurchaseFact {
  dealId: string;
  commerceSessionId: string;
  buyerAgentId: string;
  merchantDomain: string;
  amount: string;
  currency: string;
  originContractId: string | null;
  originWorkflowRunId: string | null;
  completedAt: Date;
}

export type CategoryKind = 'contract' | 'listing' | 'thread';

export interface CategoryObjectFact {
  tag: string;
  kind: CategoryKind;
  objectId: string;
  title: string;
  sandbox: boolean;
  firstSeenAt: Date;
}

const CONTRACT_ENDED = new Set(['settled', 'refunded', 'split', 'cancelled', 'expired']);
const CHECKOUT_ENDED = new Set(['completed', 'canceled']);

function money(o: unknown): { amount: string; currency: string } | null {
  if (!isObject(o)) return null;
  return { amount: stringField(o, 'amount') ?? '0', currency: stringField(o, 'currency') ?? '' };
}

/** When a contract in this snapshot ended; null while it runs. */
function contractEndedAt(status: string, updatedAt: Date, settledAt: Date | undefined): Date | null {
  if (status === 'settled') return settledAt ?? updatedAt;
  if (CONTRACT_ENDED.has(status)) return updatedAt;
  // An erroneous clear follows a settlement: the contract ended when it settled.
  if (status === 'corrected') return settledAt ?? updatedAt;
  return null;
}

export function contractFactOf(event: Pick<StoreEvent, 'type' | 'data' | 'occurred_at'>): ContractFact | null {
  if (!event.type.startsWith('exchange.market.contract.')) return null;
  const c = objectField(event.data, 'contract');
  const contractId = stringField(c, 'contractId');
  if (!c || !contractId) return null;
  const status = enumField(c, 'status', 'CONTRACT_STATUS_') ?? 'open';
  const occurred = new Date(event.occurred_at);
  const updatedAt = timeField(c, 'updatedAt') ?? occurred;
  const settledAt = timeField(c, 'settledAt');
  const budget = money(field(c, 'budget'));
  const price = money(field(c, 'price'));
  const labels = objectField(c, 'labels');
  return {
    contractId,
    buyerId: stringField(objectField(event.data, 'restricted'), 'buyerId') ?? stringField(c, 'buyerId') ?? '',
    buyerPrivate: boolField(c, 'buyerPrivate'),
    buyerAlias: stringField(c, 'buyerAlias') ?? null,
    sellerId: stringField(c, 'sellerId') ?? null,
    status,
    currency: budget?.currency || price?.currency || '',
    budget: budget?.amount ?? '0',
    price: price?.amount ?? null,
    tags: stringsField(c, 'tags'),
    listingId: stringField(c, 'listingId') ?? null,
    workflowRunId: stringField(labels, 'workflowRunId') ?? null,
    sandbox: boolField(c, 'sandbox'),
    everDisputed: status === 'disputed' || field(c, 'disputedFrom') !== undefined || event.type.endsWith('.disputed'),
    createdAt: timeField(c, 'createdAt') ?? updatedAt,
    awardedAt: timeField(c, 'awardedAt') ?? null,
    settledAt: settledAt ?? null,
    endedAt: contractEndedAt(status, updatedAt, settledAt),
    updatedAt,
  };
}

/** The contract a dispute event marks as disputed (the contract event may come later). */
export function disputedContractOf(event: Pick<StoreEvent, 'type' | 'data'>): string | null {
  if (!event.type.startsWith('exchange.market.dispute.')) return null;
  return stringField(objectField(event.data, 'dispute'), 'contractId') ?? null;
}

function originOf(o: unknown): { originContractId: string | null; originWorkflowRunId: string | null } {
  const origin = objectField(o, 'origin');
  return { originContractId: stringField(origin, 'contractId') ?? null, originWorkflowRunId: stringField(origin, 'workflowRunId') ?? null };
}

export function checkoutFactOf(event: Pick<StoreEvent, 'type' | 'data' | 'occurred_at'>): CheckoutFact | null {
  if (!event.type.startsWith('exchange.commerce.checkout.')) return null;
  const s = objectField(event.data, 'session');
  const commerceSessionId = stringField(s, 'commerceSessionId');
  if (!s || !commerceSessionId) return null;
  const status = enumField(s, 'status', 'CHECKOUT_STATUS_') ?? 'incomplete';
  const updatedAt = timeField(s, 'updatedAt') ?? new Date(event.occurred_at);
  const ended = CHECKOUT_ENDED.has(status) || typeParts(event.type).verb === 'payment_failed';
  return {
    commerceSessionId,
    buyerAgentId: stringField(s, 'buyerAgentId') ?? '',
    merchantDomain: stringField(s, 'merchantDomain') ?? '',
    status,
    currency: stringField(s, 'currency') ?? '',
    total: stringField(s, 'total') ?? '0',
    ...originOf(s),
    createdAt: timeField(s, 'createdAt') ?? updatedAt,
    endedAt: ended ? updatedAt : null,
    updatedAt,
  };
}

export function purchaseFactOf(event: Pick<StoreEvent, 'type' | 'data' | 'occurred_at'>): PurchaseFact | null {
  if (event.type !== 'exchange.commerce.purchase.recorded') return null;
  const p = objectField(event.data, 'purchase');
  const dealId = stringField(p, 'dealId');
  if (!p || !dealId) return null;
  return {
    dealId,
    commerceSessionId: stringField(p, 'commerceSessionId') ?? '',
    buyerAgentId: stringField(p, 'buyerAgentId') ?? '',
    merchantDomain: stringField(p, 'merchantDomain') ?? '',
    amount: stringField(p, 'amount') ?? '0',
    currency: stringField(p, 'currency') ?? '',
    ...originOf(p),
    completedAt: timeField(p, 'completedAt') ?? new Date(event.occurred_at),
  };
}

const CATEGORY_SOURCES: Record<string, { kind: CategoryKind; key: string; id: string }> = {
  'exchange.market.contract.created': { kind: 'contract', key: 'contract', id: 'contractId' },
  'exchange.market.listing.created': { kind: 'listing', key: 'listing', id: 'listingId' },
  'exchange.market.thread.created': { kind: 'thread', key: 'thread', id: 'threadId' },
};

/** One row per tag of a new contract, listing or thread (sandbox: the contract's flag). */
export function categoryObjectsOf(event: Pick<StoreEvent, 'type' | 'data' | 'occurred_at'>): CategoryObjectFact[] {
  const source = CATEGORY_SOURCES[event.type];
  if (!source) return [];
  const o = objectField(event.data, source.key);
  const objectId = stringField(o, source.id);
  if (!o || !objectId) return [];
  const firstSeenAt = timeField(o, 'createdAt') ?? new Date(event.occurred_at);
  const title = stringField(o, 'title') ?? '';
  const sandbox = boolField(o, 'sandbox');
  return [...new Set(stringsField(o, 'tags'))].map((tag) => ({ tag, kind: source.kind, objectId, title, sandbox, firstSeenAt }));
}

/** Every fact one event updates, read once (ingest folds them; the batch also replays `contract`). */
export interface EventFacts {
  contract: ContractFact | null;
  disputed: string | null;
  checkout: CheckoutFact | null;
  purchase: PurchaseFact | null;
  categories: CategoryObjectFact[];
}

/** The one list of the fact extractors: what `event` folds (ingest/facts.repo.ts foldFacts writes it). */
export function factsOf(event: Pick<StoreEvent, 'type' | 'data' | 'occurred_at'>): EventFacts {
  return {
    contract: contractFactOf(event),
    disputed: disputedContractOf(event),
    checkout: checkoutFactOf(event),
    purchase: purchaseFactOf(event),
    categories: categoryObjectsOf(event),
  };
}
