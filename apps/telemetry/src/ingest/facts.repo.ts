import { parseAmount } from '@exchange/platform';
import type pg from 'pg';
import type { Filing } from '../domain/classify';
import type { CategoryObjectFact, CheckoutFact, ContractFact, EventFacts, PurchaseFact } from '../domain/facts';

// The facts an event updates, written in the event's transaction (ingest.ts). A snapshot older
// than the stored one (updated_at) changes nothing, so events arriving out of order fold to the
// newest state; "ever disputed" only ever turns on.

type Queryable = Pick<pg.PoolClient, 'query'>;

// The batch replays this upsert's buyer rule in memory (domain/batch-plan.ts publicViews: the
// newer or equal updated_at wins, an empty buyer_id keeps the stored one, buyer_private follows
// the winner): a change to the WHERE, or to buyer_id or buyer_private here, is made there too.
async function upsertContract(client: Queryable, f: ContractFact): Promise<void> {
  await client.query(
    `INSERT INTO contract_facts (contract_id, buyer_id, buyer_private, buyer_alias, seller_id, status, currency, budget, price, tags,
       listing_id, workflow_run_id, sandbox, ever_disputed, created_at, awarded_at, settled_at, ended_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
     ON CONFLICT (contract_id) DO UPDATE SET
       buyer_id = CASE WHEN EXCLUDED.buyer_id <> '' THEN EXCLUDED.buyer_id ELSE contract_facts.buyer_id END,
       buyer_private = EXCLUDED.buyer_private, buyer_alias = EXCLUDED.buyer_alias, seller_id = EXCLUDED.seller_id,
       status = EXCLUDED.status, currency = EXCLUDED.currency, budget = EXCLUDED.budget, price = EXCLUDED.price,
       tags = EXCLUDED.tags, listing_id = EXCLUDED.listing_id, workflow_run_id = EXCLUDED.workflow_run_id,
       sandbox = EXCLUDED.sandbox, ever_disputed = contract_facts.ever_disputed OR EXCLUDED.ever_disputed,
       created_at = EXCLUDED.created_at, awarded_at = EXCLUDED.awarded_at, settled_at = EXCLUDED.settled_at,
       ended_at = EXCLUDED.ended_at, updated_at = EXCLUDED.updated_at
     WHERE contract_facts.updated_at <= EXCLUDED.updated_at`,
    [
      f.contractId, f.buyerId, f.buyerPrivate, f.buyerAlias, f.sellerId, f.status, f.currency, parseAmount(f.budget),
      f.price === null ? null : parseAmount(f.price), f.tags, f.listingId, f.workflowRunId, f.sandbox, f.everDisputed,
      f.createdAt, f.awardedAt, f.settledAt, f.endedAt, f.updatedAt,
    ],
  );
  // An older snapshot loses the race above, but what it proves (a dispute happened) still counts.
  if (f.everDisputed) await markDisputed(client, f.contractId);
}

async function markDisputed(client: Queryable, contractId: string): Promise<void> {
  await client.query('UPDATE contract_facts SET ever_disputed = true WHERE contract_id = $1 AND NOT ever_disputed', [contractId]);
}

async function foldCheckout(client: Queryable, f: CheckoutFact | null): Promise<void> {
  if (f === null) return;
  await client.query(
    `INSERT INTO checkout_facts (commerce_session_id, buyer_agent_id, merchant_domain, status, currency, total,
       origin_contract_id, origin_workflow_run_id, created_at, ended_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (commerce_session_id) DO UPDATE SET
       buyer_agent_id = EXCLUDED.buyer_agent_id, merchant_domain = EXCLUDED.merchant_domain, status = EXCLUDED.status,
       currency = EXCLUDED.currency, total = EXCLUDED.total, origin_contract_id = EXCLUDED.origin_contract_id,
       origin_workflow_run_id = EXCLUDED.origin_workflow_run_id, created_at = EXCLUDED.created_at,
       ended_at = EXCLUDED.ended_at, updated_at = EXCLUDED.updated_at
     WHERE checkout_facts.updated_at <= EXCLUDED.updated_at`,
    [f.commerceSessionId, f.buyerAgentId, f.merchantDomain, f.status, f.currency, parseAmount(f.total), f.originContractId,
      f.originWorkflowRunId, f.createdAt, f.endedAt, f.updatedAt],
  );
}

async function foldPurchase(client: Queryable, f: PurchaseFact | null): Promise<void> {
  if (f === null) return;
  await client.query(
    `INSERT INTO purchase_facts (deal_id, commerce_session_id, buyer_agent_id, merchant_domain, amount, currency,
       origin_contract_id, origin_workflow_run_id, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (deal_id) DO NOTHING`,
    [f.dealId, f.commerceSessionId, f.buyerAgentId, f.merchantDomain, parseAmount(f.amount), f.currency, f.originContractId,
      f.originWorkflowRunId, f.completedAt],
  );
}

async function foldCategories(client: Queryable, objects: CategoryObjectFact[], filing: Filing): Promise<void> {
  if (objects.length === 0) return;
  // A thread carries no sandbox flag: it takes its contract's.
  const sandbox = objects[0].kind === 'thread' && filing.contractId !== null
    ? ((await client.query<{ sandbox: boolean }>('SELECT sandbox FROM contract_facts WHERE contract_id = $1', [filing.contractId])).rows[0]?.sandbox ?? false)
    : objects[0].sandbox;
  await client.query(
    `INSERT INTO category_objects (tag, kind, object_id, title, sandbox, first_seen_at)
     SELECT tag, $2, $3, $4, $5, $6 FROM unnest($1::text[]) AS tag
     ON CONFLICT (tag, kind, object_id) DO NOTHING`,
    [objects.map((o) => o.tag), objects[0].kind, objects[0].objectId, objects[0].title, sandbox, objects[0].firstSeenAt],
  );
}

/** Writes `facts` (domain/facts.ts factsOf of an event already recorded, filed as `filing`); no query when there are none. */
export async function foldFacts(client: Queryable, facts: EventFacts, filing: Filing): Promise<void> {
  if (facts.contract !== null) await upsertContract(client, facts.contract);
  if (facts.disputed !== null) await markDisputed(client, facts.disputed);
  await foldCheckout(client, facts.checkout);
  await foldPurchase(client, facts.purchase);
  await foldCategories(client, facts.categories, filing);
}
