import path from 'node:path';
import pg from 'pg';
import { runMigrations } from '@exchange/db';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';

// wallet_apply_batch() against its definition (README.md "Group commit"): for random batches of
// plans, the rows it returns and EVERY table it may write must equal what wallet_apply() gives
// for the same plans called one after another in one transaction, or the batch must raise (the
// service then runs the plans one by one). Both run in rolled-back transactions on one database
// from the same seeded state. Plans are wallet_apply()'s 24 arguments as the service sends them
// (src/data/wallet-apply.ts applyArguments), built here directly so that every column of every
// entity table, keys reused across plans and malformed postings can be reached.
// A failure names its seed and batch: WALLET_BATCH_SEED=<seed> reruns exactly that sequence.

const SEED = Number(process.env.WALLET_BATCH_SEED ?? 20261125);
const BATCHES = Number(process.env.WALLET_BATCH_COUNT ?? 150);
const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const MAX = '9223372036854775807';

type Plan = unknown[];
type Row = { t: string; r: Record<string, unknown> };

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rng = ReturnType<typeof prng>;

interface PlanSpec {
  control?: string;
  key?: [scope: string, key: string, fingerprint: string];
  error?: object;
  guard?: [entity: string, id: string, status: string];
  counter?: [key: string, day: string, expect: string | null, delta: string];
  entry?: [id: string, kind: string, currency: string];
  postings?: Array<[id: string, amount: string | null]>;
  /** Overrides the postings' owners/kinds/amounts arrays (malformed plans). */
  raw?: { owners?: unknown[]; kinds?: unknown[]; amounts?: unknown[] };
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
    ps.map((p) => p[0]), s.raw?.owners ?? ps.map((p) => ownerOf(p[0])), s.raw?.kinds ?? ps.map((p) => kindOf(p[0])), s.raw?.amounts ?? ps.map((p) => p[1]),
    s.rows ?? [], s.events ?? [], s.response ?? null, new Date(T0 + s.at * 1000).toISOString(),
  ];
}

// The seeded state every batch starts from.
const ACCOUNTS: Array<[string, bigint]> = [
  ['agent_a/CREDIT/available', 300n], ['agent_a/CREDIT/held', 20n], ['agent_b/CREDIT/available', 40n], ['agent_b/CREDIT/held', 90n], ['agent_c/CREDIT/held', 30n],
  ['agent_c/CREDIT/available', 5n], ['agent_a/EUR/available', 160n], ['agent_b/EUR/held', 15n], ['agent_c/EUR/available', 120n],
  ['system/CREDIT/faucet', -500n], ['system/CREDIT/fees', 300n], ['system/CREDIT/deposits_clearing', -50n], ['merchant_m/CREDIT/merchant_settlement', 300n],
  ['system/EUR/faucet', -100n], ['system/EUR/fees', 200n], ['merchant_m/EUR/merchant_settlement', 200n],
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
// wallet_apply() on one plan of the JSON array, arguments decoded as the group_commit loop did.
const APPLY_ONE = `SELECT ${OUT} FROM (SELECT $1::jsonb AS p) AS x, LATERAL wallet_apply(
  p->>0, p->>1, p->>2, p->>3, p->>4, CASE WHEN jsonb_typeof(p->5) = 'null' THEN NULL ELSE p->5 END,
  p->>6, p->>7, p->>8, p->>9, (p->>10)::date, (p->>11)::bigint, (p->>12)::bigint, p->>13, p->>14, p->>15,
  ARRAY(SELECT jsonb_array_elements_text(p->16)), ARRAY(SELECT jsonb_array_elements_text(p->17)),
  ARRAY(SELECT jsonb_array_elements_text(p->18)), ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(p->19) AS a),
  p->20, p->21, CASE WHEN jsonb_typeof(p->22) = 'null' THEN NULL ELSE p->22 END, (p->>23)::timestamptz)`;

interface Run {
  rows?: unknown[];
  raised?: string;
  tables: Record<string, unknown[]>;
}

async function run(c: pg.ClientBase, plans: Plan[], how: 'batch' | 'one by one', readOnly = false): Promise<Run> {
  await c.query('BEGIN');
  try {
    await seed(c, readOnly);
    await c.query('SAVEPOINT plans');
    const out: Run = { tables: {} };
    try {
      if (how === 'batch') {
        out.rows = (await c.query(`SELECT ${OUT} FROM wallet_apply_batch($1::jsonb)`, [JSON.stringify(plans)])).rows;
      } else {
        out.rows = [];
        for (const p of plans) out.rows.push(...(await c.query(APPLY_ONE, [JSON.stringify(p)])).rows);
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

/** Checks one batch; 'raised' when only the batch raised (allowed: the service reruns one by one). */
async function compare(c: pg.ClientBase, plans: Plan[], label: string, readOnly = false): Promise<'same' | 'raised' | 'both raised'> {
  const loop = await run(c, plans, 'one by one', readOnly);
  const batch = await run(c, plans, 'batch', readOnly);
  const context = () => `${label}\nplans: ${JSON.stringify(plans)}`;
  if (loop.raised !== undefined) {
    if (batch.raised === undefined) throw new Error(`the batch committed plans that raise one by one (${loop.raised}): ${context()}\nbatch rows: ${JSON.stringify(batch.rows)}`);
    return 'both raised';
  }
  if (batch.raised !== undefined) return 'raised';
  if (JSON.stringify(batch.rows) !== JSON.stringify(loop.rows)) {
    throw new Error(`outcomes differ: ${context()}\nbatch: ${JSON.stringify(batch.rows)}\none by one: ${JSON.stringify(loop.rows)}`);
  }
  for (const t of Object.keys(DUMP)) {
    if (JSON.stringify(batch.tables[t]) !== JSON.stringify(loop.tables[t])) {
      throw new Error(`table ${t} differs: ${context()}\nbatch: ${JSON.stringify(batch.tables[t])}\none by one: ${JSON.stringify(loop.tables[t])}`);
    }
  }
  return 'same';
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
        : [{ t: table, r: holdRow(r.pick(PRE_HOLDS), 'agent_a', r.pick(['released', 'consumed', 'expired']), s, [`jrn_pre`, ...entries]) }];
    case 'deposits':
      return r.chance(0.4)
        ? [{ t: table, r: depositRow(`d_${id}`, 'pending', s, null) }]
        : [{ t: table, r: depositRow(r.pick(PRE_DEPOSITS), r.pick(['confirmed', 'expired']), s, entry) }];
    case 'withdrawals':
      return r.chance(0.4)
        ? [{ t: table, r: withdrawalRow(`w_${id}`, 'requested', s, entries, null) }]
        : [{ t: table, r: withdrawalRow(r.pick(PRE_WITHDRAWALS), r.pick(['processing', 'completed', 'failed']), s, [`jrn_pre`, ...entries], r.chance(0.5) ? 'bank said no' : null) }];
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
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it(`should give random batches the outcomes and rows of wallet_apply() one by one (seed ${SEED})`, async () => {
    const r = prng(SEED);
    const tally = { same: 0, raised: 0, 'both raised': 0 };
    const outcomes = new Map<string, number>();
    const written = new Map<string, number>();
    for (let b = 0; b < BATCHES; b++) {
      const plans = Array.from({ length: r.int(2, 14) }, (_, i) => randomPlan(r, b, i));
      const readOnly = r.chance(0.03);
      const result = await compare(client, plans, `seed ${SEED} batch ${b}`, readOnly);
      tally[result]++;
      if (result !== 'same') continue;
      // Coverage: what the compared batches decided and which flush branches they wrote.
      const rows = (await run(client, plans, 'batch', readOnly)).rows as Array<{ o_outcome: string; o_detail: string | null }>;
      rows.forEach((row, i) => {
        const kind = row.o_outcome + (row.o_outcome === 'blocked' ? `:${row.o_detail}` : '');
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
        if (row.o_outcome !== 'applied') return;
        for (const w of plans[i][20] as Row[]) {
          const upsert = ['holds', 'deposits', 'withdrawals'].includes(w.t) && /_pre_/.test(String(Object.values(w.r)[0]));
          written.set(w.t + (upsert ? ' (update)' : ''), (written.get(w.t + (upsert ? ' (update)' : '')) ?? 0) + 1);
        }
      });
    }
    const coverage = { tally, outcomes: Object.fromEntries(outcomes), written: Object.fromEntries(written) };
    // Most batches are compared, not raised: the set-based path is what is under test.
    expect({ seed: SEED, raisedShare: tally.raised / BATCHES < 0.3 }).toEqual({ seed: SEED, raisedShare: true });
    for (const kind of ['applied', 'replayed', 'recorded', 'insufficient', 'blocked:kill_switch:settlements', 'blocked:read_only', 'guard_failed', 'counter_stale']) {
      expect({ seed: SEED, kind, seen: (outcomes.get(kind) ?? 0) > 0, coverage }).toEqual({ seed: SEED, kind, seen: true, coverage });
    }
    for (const t of ['transfers', 'faucet_grants', 'holds', 'holds (update)', 'deposits', 'deposits (update)', 'withdrawals', 'withdrawals (update)', 'payout_destinations', 'receipts']) {
      expect({ seed: SEED, t, seen: (written.get(t) ?? 0) > 0, coverage }).toEqual({ seed: SEED, t, seen: true, coverage });
    }
  }, 60_000);

  const A = 'agent_a/CREDIT/available';
  const B = 'agent_b/CREDIT/available';
  const AH = 'agent_a/CREDIT/held';
  const FEES = 'system/CREDIT/fees';

  it('should raise on a NULL amount or postings arrays of different lengths, as wallet_apply does', async () => {
    const cases: Plan[][] = [
      [plan({ at: 0, entry: ['jrn_n1', 'transfer', 'CREDIT'], postings: [[A, '-5'], [B, null]] })],
      [plan({ at: 0, entry: ['jrn_n2', 'transfer', 'CREDIT'], postings: [[A, '-5'], [B, '5']], raw: { amounts: ['-5'] } })],
      [plan({ at: 0, entry: ['jrn_n3', 'transfer', 'CREDIT'], postings: [[A, '-5'], [B, '5']], raw: { amounts: ['-5', '5', '3'] } })],
      [plan({ at: 0, entry: ['jrn_n4', 'transfer', 'CREDIT'], postings: [[A, '5'], [B, '-5']], raw: { amounts: [5, null] } })],
      [plan({ at: 0, entry: ['jrn_n5', 'transfer', 'CREDIT'], postings: [[A, '-5'], [B, '5']], raw: { kinds: ['available'] } })],
    ];
    for (const [i, plans] of cases.entries()) {
      const two = [plan({ at: 0, entry: ['jrn_ok', 'transfer', 'CREDIT'], postings: [[A, '-1'], [B, '1']] }), ...plans];
      expect({ i, batch: (await run(client, two, 'batch')).raised?.slice(0, 5) }).toEqual({ i, batch: expect.any(String) });
      expect({ i, result: await compare(client, two, `malformed ${i}`) }).toEqual({ i, result: expect.stringMatching(/raised/) });
    }
  });

  it('should sum a plan in numeric, as wallet_apply does: [MAX, 1, -MAX, -1] balances', async () => {
    const ids = ['s1/CREDIT/deposits_clearing', 's2/CREDIT/deposits_clearing', 's3/CREDIT/deposits_clearing', 's4/CREDIT/deposits_clearing'];
    const plans = [
      plan({ at: 0, entry: ['jrn_big', 'deposit', 'CREDIT'], postings: [[ids[0], MAX], [ids[1], '1'], [ids[2], `-${MAX}`], [ids[3], '-1']] }),
      plan({ at: 1, entry: ['jrn_after', 'transfer', 'CREDIT'], postings: [[A, '-1'], [B, '1']] }),
    ];
    expect(await compare(client, plans, 'numeric sum')).toBe('same');
    // An agent-only plan (decided in variables, no fallback) summing past bigint too.
    const fresh = ['agent_x/CREDIT/available', 'agent_y/CREDIT/available'];
    const fast = [
      plan({ at: 0, entry: ['jrn_credit', 'deposit', 'CREDIT'], postings: [[fresh[0], MAX], [ids[0], `-${MAX}`]] }),
      plan({ at: 1, entry: ['jrn_move', 'transfer', 'CREDIT'], postings: [[fresh[1], MAX], [B, '1'], [fresh[0], `-${MAX}`], [A, '-1']] }),
    ];
    expect(await compare(client, fast, 'numeric sum, agents')).toBe('same');
  });

  it('should report the first short debit in posting order as the insufficient balance', async () => {
    const plans = [
      plan({ at: 0, entry: ['jrn_s1', 'transfer', 'CREDIT'], postings: [[B, '-50'], [AH, '-25'], [FEES, '75']] }),
      plan({ at: 1, entry: ['jrn_s2', 'transfer', 'CREDIT'], postings: [[AH, '-25'], [B, '-50'], [FEES, '75']] }),
    ];
    const batch = await run(client, plans, 'batch');
    expect((batch.rows as Array<{ o_detail: string }>).map((row) => row.o_detail)).toEqual(['40', '20']);
    expect(await compare(client, plans, 'two short debits')).toBe('same');
  });

  it('should raise when a merchant settlement account drained by one plan would go below zero in a later one, even if refilled after', async () => {
    const M = 'merchant_m/CREDIT/merchant_settlement';
    const plans = [
      plan({ at: 0, entry: ['jrn_m1', 'settlement', 'CREDIT'], postings: [[M, '-300'], [A, '300']] }), // drained: 300 → 0
      plan({ at: 1, entry: ['jrn_m2', 'settlement', 'CREDIT'], postings: [[M, '-3'], [B, '3']] }), // alone: the CHECK (23514)
      plan({ at: 2, entry: ['jrn_m3', 'settlement', 'CREDIT'], postings: [[A, '-10'], [M, '10']] }), // would net it back above 0
    ];
    expect((await run(client, plans, 'one by one')).raised).toMatch(/^23514/);
    expect(await compare(client, plans, 'merchant drained, refilled')).toBe('both raised');
  });
});
