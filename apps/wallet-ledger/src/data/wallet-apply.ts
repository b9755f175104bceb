import type { MutationPlan, ApplyOutcome } from '../domain/ledger.ports';
import type { StoredError } from '../domain/wallet.errors';
import { accountId } from '../domain/accounts';
import { entityRow } from './entity-rows';

// wallet_apply() (prisma/migrations/*_ledger_rules) as the service calls it: the statement, its
// arguments from a plan, its row as an outcome.

export const APPLY = {
  // A named statement: parsed and planned once per connection.
  name: 'wallet_apply',
  text: `SELECT o_outcome, o_detail, o_fingerprint, o_response, o_error
           FROM wallet_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
};

export interface ApplyRow {
  o_outcome: string;
  o_detail: string | null;
  o_fingerprint: string | null;
  o_response: unknown;
  o_error: StoredError | null;
}

/**
 * Builds wallet_apply()'s 24 arguments from a plan (see the function's migration). jsonb
 * arguments go through `encode`: JSON text for a query parameter, the value itself inside the
 * JSON array wallet_apply_batch() takes.
 */
export function applyArguments(plan: MutationPlan, encode: (v: unknown) => unknown = JSON.stringify): unknown[] {
  const postings = plan.entry?.postings ?? [];
  const json = (v: unknown) => (v === undefined ? null : encode(v));
  return [
    plan.control ?? null,
    plan.idempotency?.scope ?? null,
    plan.idempotency?.key ?? null,
    plan.idempotency?.fingerprint ?? null,
    plan.idempotency?.operation ?? null,
    json(plan.error),
    plan.guard?.entity ?? null,
    plan.guard?.id ?? null,
    plan.guard?.status ?? null,
    plan.counter?.key ?? null,
    plan.counter?.day ?? null,
    plan.counter?.expect === null || plan.counter === undefined ? null : plan.counter.expect.toString(),
    plan.counter ? plan.counter.delta.toString() : '0',
    plan.entry?.entryId ?? null,
    plan.entry?.kind ?? null,
    plan.entry?.currency ?? null,
    postings.map((p) => accountId(p.account)),
    postings.map((p) => p.account.owner),
    postings.map((p) => p.account.kind),
    postings.map((p) => p.amount.toString()),
    encode((plan.writes ?? []).map(entityRow)),
    encode(plan.events ?? []),
    json(plan.response),
    plan.now.toISOString(),
  ];
}

export function toOutcome(row: ApplyRow): ApplyOutcome {
  switch (row.o_outcome) {
    case 'applied':
      return { kind: 'applied' };
    case 'recorded':
      return { kind: 'recorded' };
    case 'replayed':
      return { kind: 'replayed', fingerprint: row.o_fingerprint ?? '', response: row.o_response, error: row.o_error };
    case 'blocked':
      return { kind: 'blocked', reason: row.o_detail as 'read_only' };
    case 'guard_failed':
      return { kind: 'guard_failed', current: row.o_detail };
    case 'counter_stale':
      return { kind: 'counter_stale', current: BigInt(row.o_detail ?? '0') };
    case 'insufficient':
      return { kind: 'insufficient', balance: BigInt(row.o_detail ?? '0') };
    default:
      throw new Error(`wallet_apply returned an unknown outcome ${row.o_outcome}`);
  }
}
