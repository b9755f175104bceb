import { formatAmount } from '@exchange/platform';
import type pg from 'pg';
import type { LedgerCheckReport, LedgerDiscrepancy } from './ledger-check';

// Amounts in the report are decimal strings like everywhere else in the API (micro-units in SQL).
const amount = (micro: string): string => formatAmount(BigInt(micro));

/** At most this many discrepancies of each kind are listed (a broken ledger can have millions). */
const LIMIT = 1000;

// Each query is one pass; all run in one REPEATABLE READ snapshot so they describe one moment.
const QUERIES = {
  counts: `SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM journal_entries) AS entries,
                  (SELECT count(*) FROM postings) AS postings`,
  // Every balance must equal the sum of its postings.
  mismatches: `SELECT a.account_id, a.balance::text AS actual, coalesce(p.total, 0)::text AS expected
                 FROM accounts a
                 LEFT JOIN (SELECT account_id, sum(amount) AS total FROM postings GROUP BY account_id) p USING (account_id)
                WHERE a.balance <> coalesce(p.total, 0)
                ORDER BY a.account_id LIMIT ${LIMIT}`,
  // Every journal entry must sum to zero (and have postings).
  unbalanced: `SELECT e.entry_id, coalesce(sum(p.amount), 0)::text AS total, count(p.entry_id) AS lines
                 FROM journal_entries e LEFT JOIN postings p USING (entry_id)
                GROUP BY e.entry_id HAVING coalesce(sum(p.amount), 0) <> 0 OR count(p.entry_id) = 0
                ORDER BY e.entry_id LIMIT ${LIMIT}`,
  // Per currency, all accounts together must be exactly zero (money is only moved, never made).
  sums: `SELECT currency, sum(balance)::text AS total FROM accounts GROUP BY currency ORDER BY currency`,
  negative: `SELECT account_id, kind::text AS kind, balance::text AS balance FROM accounts
              WHERE kind IN ('available', 'held') AND balance < 0 ORDER BY account_id LIMIT ${LIMIT}`,
  // One idempotency key, one effect: two entries with the same key within the key's 30-day life
  // mean a request was applied twice (after expiry a key may legitimately be used again).
  doubleEffects: `SELECT idempotency_scope, idempotency_key, count(*) AS entries, string_agg(entry_id, ',' ORDER BY entry_id) AS ids
                    FROM journal_entries WHERE idempotency_key IS NOT NULL
                   GROUP BY idempotency_scope, idempotency_key
                  HAVING count(*) > 1 AND max(created_at) - min(created_at) < interval '30 days'
                   ORDER BY 1, 2 LIMIT ${LIMIT}`,
  // A commerce settlement's purchase refunds, plus the merchant's share a correction took back,
  // never exceed what it paid the merchant (amount - fee); a refund of no settlement counts as
  // exceeding a payment of 0.
  purchaseRefunds: `SELECT r.refunds_receipt_id AS receipt_id, coalesce(s.amount - s.fee, 0)::text AS paid,
                           (r.total + coalesce(c.amount - c.fee, 0))::text AS returned, s.receipt_id IS NULL AS missing
                      FROM (SELECT refunds_receipt_id, sum(amount) AS total FROM receipts
                             WHERE refunds_receipt_id IS NOT NULL GROUP BY refunds_receipt_id) r
                      LEFT JOIN receipts s ON s.receipt_id = r.refunds_receipt_id AND s.kind = 'settlement'
                      LEFT JOIN receipts c ON c.corrects_receipt_id = r.refunds_receipt_id
                     WHERE s.receipt_id IS NULL OR r.total + coalesce(c.amount - c.fee, 0) > s.amount - s.fee
                     ORDER BY 1 LIMIT ${LIMIT}`,
  // A proxy budget's running totals equal its recorded calls (a call without its budget row too).
  proxyBudgets: `SELECT coalesce(b.budget_kind, c.budget_kind) || '/' || coalesce(b.budget_ref, c.budget_ref) AS subject,
                        coalesce(b.spent, 0)::text AS spent, coalesce(b.calls, 0)::text AS calls,
                        coalesce(c.total, 0)::text AS total, coalesce(c.n, 0)::text AS n
                   FROM proxy_budgets b
                   FULL JOIN (SELECT budget_kind, budget_ref, sum(cost) AS total, count(*) AS n FROM proxy_calls GROUP BY 1, 2) c
                     ON c.budget_kind = b.budget_kind AND c.budget_ref = b.budget_ref
                  WHERE coalesce(b.spent, 0) <> coalesce(c.total, 0) OR coalesce(b.calls, 0) <> coalesce(c.n, 0)
                  ORDER BY 1 LIMIT ${LIMIT}`,
};

/** Recomputes the ledger from the journal and lists every disagreement (CheckLedger). */
export async function checkLedger(pool: pg.Pool, now: Date): Promise<LedgerCheckReport> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const report = await ledgerReport(client, now);
    await client.query('COMMIT');
    return report;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The check's queries on `client`, in whatever transaction the caller has open. */
export async function ledgerReport(client: pg.ClientBase, now: Date): Promise<LedgerCheckReport> {
  const counts = (await client.query(QUERIES.counts)).rows[0];
  const mismatches = (await client.query(QUERIES.mismatches)).rows;
  const unbalanced = (await client.query(QUERIES.unbalanced)).rows;
  const sums = (await client.query(QUERIES.sums)).rows;
  const negative = (await client.query(QUERIES.negative)).rows;
  const doubles = (await client.query(QUERIES.doubleEffects)).rows;
  const overRefunded = (await client.query(QUERIES.purchaseRefunds)).rows;
  const proxyBudgets = (await client.query(QUERIES.proxyBudgets)).rows;
  const discrepancies: LedgerDiscrepancy[] = [
    ...mismatches.map((r) => ({
      kind: 'balance_mismatch' as const,
      subject: r.account_id,
      expected: amount(r.expected),
      actual: amount(r.actual),
      detail: 'account balance differs from the sum of its postings',
    })),
    ...unbalanced.map((r) => ({
      kind: 'unbalanced_entry' as const,
      subject: r.entry_id,
      expected: '0',
      actual: amount(r.total),
      detail: Number(r.lines) === 0 ? 'journal entry has no postings' : 'postings of the entry do not sum to zero',
    })),
    ...sums
      .filter((r) => r.total !== '0')
      .map((r) => ({ kind: 'global_sum' as const, subject: r.currency, expected: '0', actual: amount(r.total), detail: 'accounts of the currency do not sum to zero' })),
    ...negative.map((r) => ({
      kind: (r.kind === 'held' ? 'negative_held' : 'negative_available') as LedgerDiscrepancy['kind'],
      subject: r.account_id,
      expected: '>= 0',
      actual: amount(r.balance),
      detail: 'agent balance below zero',
    })),
    ...doubles.map((r) => ({
      kind: 'idempotency_key_two_effects' as const,
      subject: `${r.idempotency_scope} ${r.idempotency_key}`,
      expected: '1',
      actual: String(r.entries),
      detail: `journal entries ${r.ids}`,
    })),
    ...overRefunded.map((r) => ({
      kind: 'purchase_refunds_exceed_paid' as const,
      subject: r.receipt_id,
      expected: `<= ${amount(r.paid)}`,
      actual: amount(r.returned),
      detail: r.missing ? 'purchase refunds of no settlement receipt' : 'purchase refunds (and correction) paid back more than the settlement paid the merchant',
    })),
    ...proxyBudgets.map((r) => ({
      kind: 'proxy_budget_mismatch' as const,
      subject: r.subject,
      expected: `spent ${amount(r.total)} in ${r.n} calls`,
      actual: `spent ${amount(r.spent)} in ${r.calls} calls`,
      detail: 'proxy budget totals differ from its recorded calls',
    })),
  ];
  return {
    ok: discrepancies.length === 0,
    accountsChecked: Number(counts.accounts),
    entriesChecked: Number(counts.entries),
    postingsChecked: Number(counts.postings),
    globalSums: Object.fromEntries(sums.map((r) => [r.currency, amount(r.total)])),
    discrepancies,
    checkedAt: now,
  };
}

/** The reconciliation's reads (CheckLedger). */
export class LedgerRepo {
  constructor(private readonly pool: pg.Pool) {}

  check(now: Date): Promise<LedgerCheckReport> {
    return checkLedger(this.pool, now);
  }
}
