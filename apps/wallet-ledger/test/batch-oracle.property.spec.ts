import path from 'node:path';
import pg from 'pg';
import { runMigrations } from '@exchange/db';
import { createTestDatabase, prng, testLogger, type TestDatabase } from '@exchange/testing';
import { APPLY } from '../src/data/wallet-apply';

// wallet_apply_batch() against its definition (README.md "Group commit"): for random batches of
// plans, the rows it returns and EVERY table it may write must equal what wallet_apply() gives
// for the same plans called one after another in one transaction, or the batch must raise (the
// service then runs the plans one by one). Both run in rolled-back transactions on one database
// from the same seeded state. Plans are wallet_apply()'s 24 arguments as the service sends them
// (src/data/wallet-apply.ts applyArguments), built here directly so that every column of every
// entity table, keys reused across plans and malformed postings can be reached. One by one, each
// plan goes through the service's single statement (APPLY) with bound parameters, so the oracle
// shares no decoding with the function under test.
// A failure names its seed and batch: WALLET_BATCH_SEED=<seed> reruns exactly that sequence.

const SEED = Number(process.env.WALLET_BATCH_SEED ?? 20261125);
const BATCHES = Number(process.env.WALLET_BATCH_COUNT ?? 150);
const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const MAX = '9223372036854775807';

type Plan = unknown[];
type Row = { t: string; r: Record<string, unknown> };

/** The shared seeded PRNG (@exchange/testing), with the helpers the generator uses. */
function rng(seed: number) {
  const next = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rng = ReturnType<typeof rng>;

interface PlanSpec {
  control?: string;
  key?: [scope: string, key: string, fingerprint: string];
  error?: object;
  guard?: [entity: string, id: string, status: string];
  counter?: [key: string, day: string, expect: string | null, delta: string];
  entry?: [id: string, kind: string, currency: string];
  postings?: Array<[id: string, amount: string | null]>;
  /** Overrides the postings' ids/owners/kinds/amounts arrays (malformed plans). */
  raw?: { ids?: unknown[]; owners?: unknown[]; kinds?: unknown[]; amounts?: unknown[] };
  rows?: Row[];
  events?: object[];
  response?: unknown;
  at: number;
}

const ownerOf = (id: string) => id.split('/')[0];
const kindOf = (id: string) => id.split('/')[2];

function plan(s: PlanSpec): Plan {
  const ps = s.postings ?? [];
  return [
    s.control ?? null, s.key?.[0] ?? null, s.key?.[1] ?? null, s.key?.[2] ?? null, s.key ? 'transfer' : null, s.error ?? null,
    s.guard?.[0] ?? null, s.guard?.[1] ?? null, s.guard?.[2] ?? null,
    s.counter?.[0] ?? null, s.counter?.[1] ?? null, s.counter?.[2] ?? null, s.counter?.[3] ?? '0',
    s.entry?.[0] ?? null, s.entry?.[1] ?? null, s.entry?.[2] ?? null,
    s.raw?.ids ?? ps.map((p) => p[0]), s.raw?.owners ?? ps.map((p) => ownerOf(p[0])), s.raw?.kinds ?? ps.map((p) => kindOf(p[0])), s.raw?.amounts ?? ps.map((p) => p[1]),
    s.rows ?? [], s.events ?? [], s.response ?? null, new Date(T0 + s.at * 1000).toISOString(),
  ];
}

// The seeded state every batch starts from. fees and merchant_settlement hold little, so that
// random debits take them below zero (the CHECK raises, one by one too: 'both raised').
const ACCOUNTS: Array<[string, bigint]> = [
  ['agent_a/CREDIT/available', 300n], ['agent_a/CREDIT/held', 20n], ['agent_b/CREDIT/available', 40n], ['agent_b/CREDIT/held', 90n], ['agent_c/CREDIT/held', 30n],
  ['agent_c/CREDIT/available', 5n], ['agent_a/EUR/available', 160n], ['agent_b/EUR/held', 15n], ['agent_c/EUR/available', 120n],
  ['system/CREDIT/faucet', -500n], ['system/CREDIT/fees', 15n], ['system/CREDIT/deposits_clearing', -50n], ['merchant_m/CREDIT/merchant_settlement', 20n],
  ['system/EUR/faucet', -100n], ['system/EUR/fees', 10n], ['merchant_m/EUR/merchant_settlement', 12n],
];
const PRE_HOLDS = ['h_pre_1', 'h_pre_2', 'h_pre_3', 'h_pre_4'];
const PRE_DEPOSITS = ['d_pre_1', 'd_pre_2', 'd_pre_3'];
const PRE_WITHDRAWALS = ['w_pre_1', 'w_pre_2', 'w_pre_3'];
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function holdRow(id: string, agent: string, status: string, s: number, entries: string[]) {
  return {
    hold_id: id, agent_id: agent, amount: '20', currency: 'CREDIT', status, expires_at: status === 'active' ? at(3600) : null, reference: `ref_${id}`,
    consumed_amount: status === 'consumed' ? '12' : null, released_amount: status === 'released' ? '20' : status === 'consumed' ? '8' : null,
    consumed_to_agent_id: status === 'consumed' ? 'agent_b' : null, journal_entry_ids: entries, created_at: at(-100), updated_at: at(s), controller: 'agent',
  };
}
function depositRow(id: string, status: string, s: number, entry: string | null) {
  return { deposit_id: id, agent_id: 'agent_a', amount: '25', currency: 'CREDIT', method: 'sandbox', reference: `dref_${id}`, status, journal_entry_id: entry, created_at: at(-100), updated_at: at(s) };
}
function withdrawalRow(id: string, status: string, s: number, entries: string[], reason: string | null) {
  return {
    withdrawal_id: id, agent_id: 'agent_a', amount: '15', currency: 'CREDIT', payout_destination_id: 'pd_pre_1', status, failure_reason: reason,
    journal_entry_ids: entries, created_at: at(-100), updated_at: at(s),
  };
}

async function seed(c: pg.ClientBase, readOnly: boolean) {
  await c.query(
    `INSERT INTO accounts (account_id, owner_id, currency, kind, balance)
       SELECT id, split_part(id, '/', 1), split_part(id, '/', 2), split_part(id, '/', 3)::account_kind, b FROM unnest($1::text[], $2::bigint[]) AS x(id, b)`,
    [ACCOUNTS.map((a) => a[0]), ACCOUNTS.map((a) => a[1].toString())],
  );
  const rows: Row[] = [
    ...PRE_HOLDS.map((id, i) => ({ t: 'holds', r: holdRow(id, i % 2 ? 'agent_c' : 'agent_a', 'active', -100, [`jrn_pre_${id}`]) })),
    ...PRE_DEPOSITS.map((id) => ({ t: 'deposits', r: depositRow(id, 'pending', -100, null) })),
    { t: 'payout_destinations', r: { payout_destination_id: 'pd_pre_1', agent_id: 'agent_a', type: 'sandbox', details: { to: 'x' }, label: 'mine', created_at: at(-100) } },
    ...PRE_WITHDRAWALS.map((id) => ({ t: 'withdrawals', r: withdrawalRow(id, 'requested', -100, [`jrn_pre_${id}`], null) })),
  ];
  for (const { t, r } of rows) await c.query(`INSERT INTO ${t} SELECT * FROM jsonb_populate_record(NULL::${t}, $1::jsonb)`, [JSON.stringify(r)]);
  await c.query(
    `INSERT INTO idempotency_keys (scope, key, operation, fingerprint, outcome, response, error, journal_entry_id, created_at, expires_at) VALUES
       ('agent_a', 'k1', 'transfer', 'f1', 'succeeded', '{"pre": 1}', NULL, NULL, $1, $1),
       ('agent_b', 'k2', 'transfer', 'f2', 'failed', NULL, '{"code": "invalid_state", "grpc_code": 9}', NULL, $1, $1)`,
    [at(-100)],
  );
  await c.query(`INSERT INTO daily_counters (counter_key, day, used) VALUES ('faucet:agent_a', '2026-11-25', 10)`);
  await c.query(`UPDATE controls SET kill_switches = '{settlements}', read_only = $1 WHERE id = 1`, [readOnly]);
}

const DUMP: Record<string, string> = {
  accounts: `SELECT account_id, owner_id, currency, kind, balance::text FROM accounts ORDER BY account_id`,
  journal_entries: `SELECT * FROM journal_entries ORDER BY entry_id`,
  postings: `SELECT entry_id, account_id, amount::text FROM postings ORDER BY entry_id, account_id`,
  idempotency_keys: `SELECT * FROM idempotency_keys ORDER BY scope, key`,
  // created_at is the transaction's start: it differs between the two runs by construction.
  outbox_events: `SELECT id, type, payload, published_at FROM outbox_events ORDER BY id`,
  transfers: `SELECT * FROM transfers ORDER BY transfer_id`,
  faucet_grants: `SELECT * FROM faucet_grants ORDER BY faucet_grant_id`,
  holds: `SELECT * FROM holds ORDER BY hold_id`,
  deposits: `SELECT * FROM deposits ORDER BY deposit_id`,
  withdrawals: `SELECT * FROM withdrawals ORDER BY withdrawal_id`,
  payout_destinations: `SELECT * FROM payout_destinations ORDER BY payout_destination_id`,
  receipts: `SELECT * FROM receipts ORDER BY receipt_id`,
  daily_counters: `SELECT counter_key, day::text, used::text FROM daily_counters ORDER BY counter_key, day`,
  controls: `SELECT id, read_only, kill_switches FROM controls ORDER BY id`,
};

const OUT = `o_outcome, o_detail, o_fingerprint, o_response, o_error`;
const JSONB = new Set([5, 20, 21, 22]);
const NULLABLE_JSONB = new Set([5, 22]);
/** A plan of the batch's JSON array as APPLY's bound parameters (applyArguments with JSON.stringify). */
const bound = (p: Plan) => p.map((v, i) => (JSONB.has(i) && !(NULLABLE_JSONB.has(i) && v === null) ? JSON.stringify(v) : v));

interface Run {
  rows?: unknown[];
  raised?: string;
  /** Batch runs: wallet_apply() calls the batch made (its slow plans). */
  slow?: number;
  tables: Record<string, unknown[]>;
}

const calls = async (c: pg.ClientBase) =>
  Number((await c.query<{ n: string }>(`SELECT coalesce(sum(calls), 0)::text AS n FROM pg_stat_xact_user_functions WHERE funcname = 'wallet_apply'`)).rows[0].n);

async function run(c: pg.ClientBase, plans: Plan[], how: 'batch' | 'one by one', readOnly = false): Promise<Run> {
  await c.query('BEGIN');
  try {
    await seed(c, readOnly);
    await c.query('SAVEPOINT plans');
    const out: Run = { tables: {} };
    try {
      if (how === 'batch') {
        // The view also holds calls of earlier transactions not yet flushed: a difference.
        const before = await calls(c);
        out.rows = (await c.query(`SELECT ${OUT} FROM wallet_apply_batch($1::jsonb)`, [JSON.stringify(plans)])).rows;
        out.slow = (await calls(c)) - before;
      } else {
        out.rows = [];
        for (const p of plans) out.rows.push(...(await c.query({ ...APPLY, values: bound(p) })).rows);
      }
    } catch (err) {
      const e = err as { code?: string; message: string };
      if (!e.code) throw err;
      out.raised = `${e.code} ${e.message}`;
      delete out.rows;
      await c.query('ROLLBACK TO SAVEPOINT plans');
    }
    for (const [t, q] of Object.entries(DUMP)) out.tables[t] = (await c.query(q)).rows;
    return out;
  } finally {
    await c.query('ROLLBACK');
  }
}

type Result = 'same' | 'raised' | 'both raised';

/** Checks one batch; 'raised' when only the batch raised (allowed: the service reruns one by one). Returns the batch's run too. */
async function compare(c: pg.ClientBase, plans: Plan[], label: string, readOnly = false): Promise<{ result: Result; batch: Run }> {
  const loop = await run(c, plans, 'one by one', readOnly);
  const batch = await run(c, plans, 'batch', readOnly);
  const context = () => `${label}\nplans: ${JSON.stringify(plans)}`;
  if (loop.raised !== undefined) {
    if (batch.raised === undefined) throw new Error(`the batch committed plans that raise one by one (${loop.raised}): ${context()}\nbatch rows: ${JSON.stringify(batch.rows)}`);
    return { result: 'both raised', batch };
  }
  if (batch.raised !== undefined) return { result: 'raised', batch };
  if (JSON.stringify(batch.rows) !== JSON.stringify(loop.rows)) {
    throw new Error(`outcomes differ: ${context()}\nbatch: ${JSON.stringify(batch.rows)}\none by one: ${JSON.stringify(loop.rows)}`);
  }
  for (const t of Object.keys(DUMP)) {
    if (JSON.stringify(batch.tables[t]) !== JSON.stringify(loop.tables[t])) {
      throw new Error(`table ${t} differs: ${context()}\nbatch: ${JSON.stringify(batch.tables[t])}\none by one: ${JSON.stringify(loop.tables[t])}`);
    }
  }
  return { result: 'same', batch };
}

// ---- The generator ----

const SCOPES = ['agent_a', 'agent_b', 'agent_c'];
const KEYS = ['k1', 'k2', 'k3', 'k4'];
function accountPool(cur: string, batch: number): string[] {
  const fresh = `agent_new${batch % 3}`;
  return [
    `agent_a/${cur}/available`, `agent_a/${cur}/held`, `agent_b/${cur}/available`, `agent_b/${cur}/held`, `agent_c/${cur}/available`, `agent_c/${cur}/held`,
    `${fresh}/${cur}/available`, `${fresh}/${cur}/held`,
    `system/${cur}/faucet`, `system/${cur}/fees`, `system/${cur}/deposits_clearing`, `system/${cur}/withdrawals_clearing`, `merchant_m/${cur}/merchant_settlement`,
  ];
}

function postings(r: Rng, cur: string, batch: number): Array<[string, string]> {
  const pool = accountPool(cur, batch);
  const k = r.int(2, 4);
  const ids: string[] = [];
  while (ids.length < k) {
    const id = r.pick(pool);
    if (!ids.includes(id)) ids.push(id);
  }
  for (;;) {
    const amounts = ids.slice(1).map(() => (r.chance(0.5) ? -1 : 1) * r.int(1, 45));
    const first = -amounts.reduce((a, b) => a + b, 0);
    if (first !== 0) return ids.map((id, i) => [id, String(i === 0 ? first : amounts[i - 1])]);
  }
}

// An upsert of an existing row changes the columns wallet_apply()'s ON CONFLICT … DO UPDATE SET
// does not list too, so that a column added to the batch's SET list shows in the dump.
const unlisted = (s: number) => ({ amount: '21', currency: 'EUR', agent_id: 'agent_b', reference: `upd_${s}`, created_at: at(s) });

/** Entity rows of every table wallet_apply writes; upserts of existing rows too. */
function entityRows(r: Rng, id: string, entry: string | null, s: number, cur: string): Row[] {
  const table = r.pick(['transfers', 'faucet_grants', 'holds', 'holds', 'deposits', 'deposits', 'withdrawals', 'withdrawals', 'payout_destinations', 'receipts']);
  const entries = entry ? [entry] : [];
  switch (table) {
    case 'transfers':
      return [{ t: table, r: { transfer_id: `trf_${id}`, from_agent_id: 'agent_a', to_agent_id: 'agent_b', amount: String(r.int(1, 99)), currency: cur, memo: r.chance(0.5) ? null : `m'${id}"`, journal_entry_id: entry ?? `jrn_${id}`, created_at: at(s) } }];
    case 'faucet_grants':
      return [{ t: table, r: { faucet_grant_id: `fg_${id}`, agent_id: 'agent_b', amount: '7', currency: cur, category: 'daily', journal_entry_id: entry ?? `jrn_${id}`, granted_today: '7', remaining_today: '93', resets_at: at(86400), created_at: at(s) } }];
    case 'holds':
      return r.chance(0.5)
        ? [{ t: table, r: holdRow(`h_${id}`, 'agent_b', 'active', s, entries) }]
        : [{ t: table, r: { ...holdRow(r.pick(PRE_HOLDS), 'agent_a', r.pick(['released', 'consumed', 'expired']), s, [`jrn_pre`, ...entries]), ...unlisted(s), expires_at: at(s + 60), controller: 'market' } }];
    case 'deposits':
      return r.chance(0.4)
        ? [{ t: table, r: depositRow(`d_${id}`, 'pending', s, null) }]
        : [{ t: table, r: { ...depositRow(r.pick(PRE_DEPOSITS), r.pick(['confirmed', 'expired']), s, entry), ...unlisted(s), method: 'bank' } }];
    case 'withdrawals':
      return r.chance(0.4)
        ? [{ t: table, r: withdrawalRow(`w_${id}`, 'requested', s, entries, null) }]
        : [{ t: table, r: { ...withdrawalRow(r.pick(PRE_WITHDRAWALS), r.pick(['processing', 'completed', 'failed']), s, [`jrn_pre`, ...entries], r.chance(0.5) ? 'bank said no' : null), ...unlisted(s), reference: undefined } }];
    case 'payout_destinations':
      return [{ t: table, r: { payout_destination_id: `pd_${id}`, agent_id: 'agent_c', type: r.pick(['bank_account', 'crypto_address', 'sandbox']), details: { iban: `X${id}`, n: [1, 'two'] }, label: `l\\${id}`, created_at: at(s) } }];
    default:
      return [{
        t: 'receipts',
        r: {
          receipt_id: `rcp_${id}`, kind: 'settlement', contract_id: `ctr_${id}`, hold_id: 'h_pre_1', payer: 'agent_a', payee: 'agent_b', amount: '12', fee: '1', refunded_amount: '0',
          currency: cur, journal_entry_ids: entries, settled_at: at(s), signature: `sig_${id}`, signer_public_key: 'pk', corrects_receipt_id: null, reason: null, reference: null, refunds_receipt_id: null,
        },
      }];
  }
}

function randomPlan(r: Rng, batch: number, i: number): Plan {
  const id = `${batch}_${i}`;
  const s: PlanSpec = { at: i };
  const cur = r.chance(0.7) ? 'CREDIT' : 'EUR';
  if (r.chance(0.45)) s.key = [r.pick(SCOPES), r.pick(KEYS), r.pick(['f1', 'f2'])];
  if (r.chance(0.08)) s.control = r.pick(['settlements', 'transfers']);
  const events = Array.from({ length: r.int(0, 2) }, (_, k) => ({ id: `evt_${id}_${k}`, type: 'exchange.wallet.x', data: { i, k, cur } }));
  const what = r.next();
  if (what < 0.08) {
    s.key ??= [r.pick(SCOPES), r.pick(KEYS), 'f1'];
    s.error = { grpc_code: 9, code: 'invalid_state', message: `no ${id}` };
    return plan(s);
  }
  if (what < 0.16) {
    // Response only: no journal entry (e.g. a payout destination), maybe an entity row.
    return plan({ ...s, rows: r.chance(0.7) ? entityRows(r, id, null, i, cur) : [], events, response: s.key ? { only: id } : undefined });
  }
  if (what < 0.2) s.guard = r.pick([['hold', r.pick(PRE_HOLDS), r.pick(['active', 'released'])], ['deposit', r.pick(PRE_DEPOSITS), 'pending'], ['withdrawal', r.pick(PRE_WITHDRAWALS), 'requested']]);
  else if (what < 0.24) s.counter = ['faucet:agent_a', '2026-11-25', r.pick([null, '10', '15', '11']), String(r.int(0, 5))];
  s.entry = [`jrn_${id}`, r.pick(['transfer', 'hold', 'deposit', 'settlement']), cur];
  s.postings = postings(r, cur, batch);
  s.rows = r.chance(0.75) ? entityRows(r, id, `jrn_${id}`, i, cur) : [];
  s.events = events;
  s.response = s.key && r.chance(0.8) ? { done: id, n: i } : undefined;
  return plan(s);
}

describe('wallet_apply_batch against wallet_apply one after another (seeded property)', () => {
  let db: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase('batch_oracle');
    await runMigrations({ connectionString: db.url, migrationsDir: path.join(__dirname, '..', 'prisma', 'migrations'), logger: testLogger });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`SET track_functions = 'pl'`); // pg_stat_xact_user_functions: the batch's wallet_apply() calls
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it(`should give random batches the outcomes and rows of wallet_apply() one by one (seed ${SEED})`, async () => {
    const r = rng(SEED);
    const tally = { same: 0, raised: 0, 'both raised': 0 };
    // Outcomes of compared batches that made no wallet_apply() call (every plan decided set-based),
    // and of the others (a slow plan's outcome is wallet_apply()'s own).
    const setBased = new Map<string, number>();
    const withSlow = new Map<string, number>();
    const written = new Map<string, number>();
    const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    let slowPlans = 0;
    let plansSeen = 0;
    for (let b = 0; b < BATCHES; b++) {
      const plans = Array.from({ length: r.int(2, 14) }, (_, i) => randomPlan(r, b, i));
      const readOnly = r.chance(0.03);
      const { result, batch } = await compare(client, plans, `seed ${SEED} batch ${b}`, readOnly);
      tally[result]++;
      if (result !== 'same') continue;
      // Coverage: what the compared batches decided and which flush branches they wrote.
      plansSeen += plans.length;
      slowPlans += batch.slow ?? 0;
      (batch.rows as Array<{ o_outcome: string; o_detail: string | null }>).forEach((row, i) => {
        const kind = row.o_outcome + (row.o_outcome === 'blocked' ? `:${row.o_detail}` : '');
        count(batch.slow === 0 ? setBased : withSlow, kind);
        if (row.o_outcome !== 'applied') return;
        for (const w of plans[i][20] as Row[]) {
          const upsert = ['holds', 'deposits', 'withdrawals'].includes(w.t) && /_pre_/.test(String(Object.values(w.r)[0]));
          count(written, w.t + (upsert ? ' (update)' : ''));
        }
      });
    }
    const coverage = { tally, slowPlans, plansSeen, setBased: Object.fromEntries(setBased), withSlow: Object.fromEntries(withSlow), written: Object.fromEntries(written) };
    // Most batches are compared, not raised: the set-based path is what is under test. Some raise
    // one by one too (a CHECK), and the batch must raise with them.
    expect({ seed: SEED, raisedShare: tally.raised / BATCHES < 0.3, bothRaised: tally['both raised'] > 0, coverage }).toEqual({ seed: SEED, raisedShare: true, bothRaised: true, coverage });
    for (const kind of ['applied', 'replayed', 'recorded', 'insufficient', 'blocked:kill_switch:settlements', 'blocked:read_only']) {
      expect({ seed: SEED, kind, setBased: (setBased.get(kind) ?? 0) > 0, coverage }).toEqual({ seed: SEED, kind, setBased: true, coverage });
    }
    // Only wallet_apply() answers these (guarded and counter plans are slow).
    for (const kind of ['guard_failed', 'counter_stale']) {
      expect({ seed: SEED, kind, seen: (withSlow.get(kind) ?? 0) > 0, coverage }).toEqual({ seed: SEED, kind, seen: true, coverage });
    }
    for (const t of ['transfers', 'faucet_grants', 'holds', 'holds (update)', 'deposits', 'deposits (update)', 'withdrawals', 'withdrawals (update)', 'payout_destinations', 'receipts']) {
      expect({ seed: SEED, t, seen: (written.get(t) ?? 0) > 0, coverage }).toEqual({ seed: SEED, t, seen: true, coverage });
    }
  }, 60_000);

  const A = 'agent_a/CREDIT/available';
  const B = 'agent_b/CREDIT/available';
  const AH = 'agent_a/CREDIT/held';
  const FEES = 'system/CREDIT/fees';

  it('should raise on malformed postings before deciding anything, whether wallet_apply raises on them or applies them', async () => {
    const MALFORMED = /^22023 wallet_apply_batch: malformed postings/;
    const e = (n: number) => ['jrn_n' + n, 'transfer', 'CREDIT'] as [string, string, string];
    const cases: Array<{ name: string; plan: Plan; result: Result; batch: RegExp }> = [
      // wallet_apply(): "does not balance" (a NULL amount adds nothing to the sum).
      { name: 'NULL amount', plan: plan({ at: 0, entry: e(1), postings: [[A, '-5'], [B, null]] }), result: 'both raised', batch: MALFORMED },
      { name: 'amounts shorter', plan: plan({ at: 0, entry: e(2), postings: [[A, '-5'], [B, '5']], raw: { amounts: ['-5'] } }), result: 'both raised', batch: MALFORMED },
      { name: 'amounts longer', plan: plan({ at: 0, entry: e(3), postings: [[A, '-5'], [B, '5']], raw: { amounts: ['-5', '5', '3'] } }), result: 'both raised', batch: MALFORMED },
      { name: 'NULL amount, numbers', plan: plan({ at: 0, entry: e(4), postings: [[A, '5'], [B, '-5']], raw: { amounts: [5, null] } }), result: 'both raised', batch: MALFORMED },
      // Without the check the batch would answer insufficient (A's 299): its sum skips the NULL.
      { name: 'NULL amount after a short debit', plan: plan({ at: 0, entry: e(5), postings: [[A, '-1000'], [B, null]] }), result: 'both raised', batch: MALFORMED },
      // wallet_apply(): a NOT NULL violation creating the account (23502).
      { name: 'NULL account id', plan: plan({ at: 0, entry: e(6), postings: [[A, '-5'], [B, '5']], raw: { ids: [A, null] } }), result: 'both raised', batch: MALFORMED },
      // wallet_apply(): 23505 on postings_pkey (it does not apply one of the amounts).
      { name: 'an account twice', plan: plan({ at: 0, entry: e(7), postings: [[A, '-5'], [A, '5']] }), result: 'both raised', batch: MALFORMED },
      // wallet_apply() applies these (unnest pads the short array with NULLs; A and B exist).
      { name: 'kinds shorter', plan: plan({ at: 0, entry: e(8), postings: [[A, '-5'], [B, '5']], raw: { kinds: ['available'] } }), result: 'raised', batch: MALFORMED },
      { name: 'owners shorter', plan: plan({ at: 0, entry: e(9), postings: [[A, '-5'], [B, '5']], raw: { owners: ['agent_a'] } }), result: 'raised', batch: MALFORMED },
      // Well-formed but refused by both, with wallet_apply()'s own errors.
      { name: 'does not balance', plan: plan({ at: 0, entry: e(10), postings: [[A, '-5'], [B, '4']] }), result: 'both raised', batch: /^P0001 wallet_apply: journal entry jrn_n10 does not balance$/ },
      { name: 'unknown table', plan: plan({ at: 0, entry: e(11), postings: [[A, '-5'], [B, '5']], rows: [{ t: 'nope', r: {} }] }), result: 'both raised', batch: /^P0001 wallet_apply: unknown table nope$/ },
    ];
    for (const c of cases) {
      const two = [plan({ at: 0, entry: ['jrn_ok', 'transfer', 'CREDIT'], postings: [[A, '-1'], [B, '1']] }), c.plan];
      const { result, batch } = await compare(client, two, `malformed: ${c.name}`);
      expect({ name: c.name, result, raised: batch.raised }).toEqual({ name: c.name, result: c.result, raised: expect.stringMatching(c.batch) });
    }
  });

  it("should raise (21000) before anything commits when a slow plan's wallet_apply() returns other than one row", async () => {
    const args = (await client.query<{ a: string }>(`SELECT pg_get_function_identity_arguments('wallet_apply'::regproc) AS a`)).rows[0].a;
    const plans = [
      plan({ at: 0, entry: ['jrn_r1', 'transfer', 'CREDIT'], postings: [[A, '-1'], [B, '1']] }),
      plan({ at: 1, guard: ['hold', 'h_pre_1', 'active'], entry: ['jrn_r2', 'transfer', 'CREDIT'], postings: [[A, '-1'], [B, '1']] }),
    ];
    for (const rows of [0, 2]) {
      await client.query('BEGIN');
      try {
        // A broken wallet_apply(), in this transaction only.
        await client.query(
          `CREATE OR REPLACE FUNCTION wallet_apply(${args}) RETURNS TABLE (o_outcome text, o_detail text, o_fingerprint text, o_response jsonb, o_error jsonb)
             LANGUAGE sql AS $$ SELECT 'applied'::text, NULL::text, NULL::text, NULL::jsonb, NULL::jsonb FROM generate_series(1, ${rows}) $$`,
        );
        const raised = await client.query(`SELECT ${OUT} FROM wallet_apply_batch($1::jsonb)`, [JSON.stringify(plans)]).then(
          (r) => `answered ${r.rowCount} rows`,
          (err: { code?: string; message: string }) => `${err.code} ${err.message}`,
        );
        expect({ rows, raised }).toEqual({ rows, raised: `21000 wallet_apply_batch: wallet_apply returned ${rows} rows for plan 2` });
      } finally {
        await client.query('ROLLBACK');
      }
    }
  });

  it("should keep the flush's entity tables and upsert clauses those of wallet_apply() (tripwire against drift)", async () => {
    const def = async (f: string) => (await client.query<{ d: string }>(`SELECT pg_get_functiondef($1::regproc) AS d`, [f])).rows[0].d;
    // Per `WHEN '<table>' THEN` label of the CASE: its ON CONFLICT (…) DO UPDATE SET … clause, if any.
    const upserts = (text: string) => {
      const parts = text.split(/WHEN '([a-z_]+)' THEN/);
      const out: Record<string, string> = {};
      for (let k = 1; k < parts.length; k += 2) {
        const body = parts[k + 1].split(/\bELSE\b|END CASE/)[0];
        const m = /ON CONFLICT\s*\(([^)]*)\)\s*DO UPDATE SET([^;]*);/.exec(body);
        out[parts[k]] = m ? `(${m[1].trim()}) ${m[2].split(',').map((x) => x.replace(/\s+/g, ' ').trim()).sort().join(', ')}` : '';
      }
      return out;
    };
    const single = upserts(await def('wallet_apply'));
    const flush = upserts(await def('wallet_apply_batch_flush'));
    expect(Object.keys(single).sort()).toEqual(['deposits', 'faucet_grants', 'holds', 'payout_destinations', 'receipts', 'transfers', 'withdrawals']);
    expect(Object.entries(single).filter(([, c]) => c !== '').map(([t]) => t).sort()).toEqual(['deposits', 'holds', 'withdrawals']);
    expect(flush).toEqual(single);
  });

  it('should sum a plan in numeric, as wallet_apply does: [MAX, 1, -MAX, -1] balances', async () => {
    const ids = ['s1/CREDIT/deposits_clearing', 's2/CREDIT/deposits_clearing', 's3/CREDIT/deposits_clearing', 's4/CREDIT/deposits_clearing'];
    const plans = [
      plan({ at: 0, entry: ['jrn_big', 'deposit', 'CREDIT'], postings: [[ids[0], MAX], [ids[1], '1'], [ids[2], `-${MAX}`], [ids[3], '-1']] }),
      plan({ at: 1, entry: ['jrn_after', 'transfer', 'CREDIT'], postings: [[A, '-1'], [B, '1']] }),
    ];
    expect((await compare(client, plans, 'numeric sum')).result).toBe('same');
    // An agent-only plan (decided in variables, no fallback) summing past bigint too.
    const fresh = ['agent_x/CREDIT/available', 'agent_y/CREDIT/available'];
    const fast = [
      plan({ at: 0, entry: ['jrn_credit', 'deposit', 'CREDIT'], postings: [[fresh[0], MAX], [ids[0], `-${MAX}`]] }),
      plan({ at: 1, entry: ['jrn_move', 'transfer', 'CREDIT'], postings: [[fresh[1], MAX], [B, '1'], [fresh[0], `-${MAX}`], [A, '-1']] }),
    ];
    expect((await compare(client, fast, 'numeric sum, agents')).result).toBe('same');
  });

  it('should report the first short debit in posting order as the insufficient balance', async () => {
    const plans = [
      plan({ at: 0, entry: ['jrn_s1', 'transfer', 'CREDIT'], postings: [[B, '-50'], [AH, '-25'], [FEES, '75']] }),
      plan({ at: 1, entry: ['jrn_s2', 'transfer', 'CREDIT'], postings: [[AH, '-25'], [B, '-50'], [FEES, '75']] }),
    ];
    const { result, batch } = await compare(client, plans, 'two short debits');
    expect(result).toBe('same');
    expect((batch.rows as Array<{ o_detail: string }>).map((row) => row.o_detail)).toEqual(['40', '20']);
  });

  it('should raise when a merchant settlement account drained by one plan would go below zero in a later one, even if refilled after', async () => {
    const M = 'merchant_m/CREDIT/merchant_settlement';
    const plans = [
      plan({ at: 0, entry: ['jrn_m1', 'settlement', 'CREDIT'], postings: [[M, '-20'], [A, '20']] }), // drained: 20 → 0
      plan({ at: 1, entry: ['jrn_m2', 'settlement', 'CREDIT'], postings: [[M, '-3'], [B, '3']] }), // alone: the CHECK (23514)
      plan({ at: 2, entry: ['jrn_m3', 'settlement', 'CREDIT'], postings: [[A, '-10'], [M, '10']] }), // would net it back above 0
    ];
    expect((await run(client, plans, 'one by one')).raised).toMatch(/^23514/);
    expect((await compare(client, plans, 'merchant drained, refilled')).result).toBe('both raised');
  });
});
