import path from 'node:path';
import pg from 'pg';
import { runMigrations } from '@exchange/db';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { agentAccount, merchantAccount, systemAccount } from '../src/domain/accounts';
import type { ApplyOutcome, MutationPlan } from '../src/domain/ledger.ports';
import { balancedPostings, faucetPostings, holdPostings, transferPostings } from '../src/domain/postings';
import type { GroupCommitOptions } from '../src/data/group-commit';
import { PgLedgerWriter } from '../src/data/ledger.writer';
import { checkLedger } from '../src/ledger/ledger.repo';

// Group commit on real PostgreSQL (README.md "Group commit"). The oracle: the same plans, in the
// same order, each committed alone on a second database. Batched, every plan must get the same
// outcome and the databases must end up with the same rows.

const NOW = new Date('2026-11-25T12:00:00.000Z');
const CUR = 'CREDIT';
const ONE_BATCH: GroupCommitOptions = { maxBatch: 64, windowUs: 0, maxInFlight: 1 };
const agents = ['agent_a', 'agent_b', 'agent_c', 'agent_d', 'agent_p'];

interface Ledger {
  db: TestDatabase;
  pool: pg.Pool;
  /** Names of the statements sent (wallet_apply, wallet_apply_batch). */
  statements: string[];
  kicks: number;
  writer: PgLedgerWriter;
}

async function openLedger(name: string, groupCommit?: GroupCommitOptions): Promise<Ledger> {
  const db = await createTestDatabase(name);
  await runMigrations({ connectionString: db.url, migrationsDir: path.join(__dirname, '..', 'prisma', 'migrations'), logger: testLogger });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined); // the connection a test kills
  const ledger: Ledger = { db, pool, statements: [], kicks: 0, writer: undefined as unknown as PgLedgerWriter };
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const name = (args[0] as { name?: string }).name;
    if (name) ledger.statements.push(name);
    return query(...args);
  };
  ledger.writer = new PgLedgerWriter(pool, testLogger, () => ledger.kicks++, groupCommit);
  // Funding: agent_p gets little, so that its second transfer in a batch falls short.
  const alone = new PgLedgerWriter(pool, testLogger);
  for (const [i, agent] of agents.entries()) {
    const amount = agent === 'agent_p' ? 5n : 1_000n;
    await alone.apply({ now: NOW, entry: { entryId: `jrn_fund_${i}`, kind: 'faucet', currency: CUR, postings: faucetPostings(agent, CUR, amount) } });
  }
  await pool.query(`UPDATE controls SET kill_switches = '{settlements}' WHERE id = 1`);
  ledger.statements.length = 0;
  return ledger;
}

async function closeLedger(l: Ledger) {
  await l.pool.end();
  await l.db.drop();
}

let seq = 0;
function transfer(from: string, to: string, amount: bigint, key?: { key: string; fingerprint: string }): MutationPlan {
  const n = seq++;
  const entryId = `jrn_${n}`;
  return {
    now: NOW,
    idempotency: key && { scope: from, key: key.key, fingerprint: key.fingerprint, operation: 'transfer' },
    entry: { entryId, kind: 'transfer', currency: CUR, postings: transferPostings(from, to, CUR, amount) },
    writes: [
      { table: 'transfers', value: { transferId: `trf_${n}`, fromAgentId: from, toAgentId: to, amount, currency: CUR, memo: null, journalEntryId: entryId, createdAt: NOW } },
    ],
    events: [{ id: `evt_${n}`, type: 'exchange.wallet.transfer.completed', subject_id: from }],
    response: key && { transfer: { id: `trf_${n}` } },
  };
}

function hold(agent: string, amount: bigint, key?: { key: string; fingerprint: string }): MutationPlan {
  const n = seq++;
  const entryId = `jrn_${n}`;
  const value = {
    holdId: `hld_${n}`, agentId: agent, amount, currency: CUR, status: 'active' as const, expiresAt: null, reference: null, consumedAmount: null,
    releasedAmount: null, consumedToAgentId: null, journalEntryIds: [entryId], createdAt: NOW, updatedAt: NOW, controller: 'agent',
  };
  return {
    now: NOW,
    idempotency: key && { scope: agent, key: key.key, fingerprint: key.fingerprint, operation: 'create_hold' },
    entry: { entryId, kind: 'hold', currency: CUR, postings: holdPostings(agent, CUR, amount) },
    writes: [{ table: 'holds', value }],
    events: [{ id: `evt_${n}`, type: 'exchange.wallet.hold.created', subject_id: agent }],
    response: key && { hold: { id: `hld_${n}` } },
  };
}

/** A faucet grant without its daily counter (the faucet account is below zero). */
function faucet(agent: string, amount: bigint): MutationPlan {
  const n = seq++;
  return { now: NOW, entry: { entryId: `jrn_${n}`, kind: 'faucet', currency: CUR, postings: faucetPostings(agent, CUR, amount) } };
}

/** A correction moving `amount` between the fees account and an agent (negative: out of fees). */
function feesCorrection(agent: string, amount: bigint): MutationPlan {
  const n = seq++;
  return {
    now: NOW,
    entry: {
      entryId: `jrn_${n}`,
      kind: 'correction',
      currency: CUR,
      postings: balancedPostings([
        { account: systemAccount(CUR, 'fees'), amount },
        { account: agentAccount(agent, CUR, 'available'), amount: -amount },
      ]),
    },
  };
}

/** Moves `amount` from an agent into merchant_m's settlement account (negative: out of it). */
function merchantMove(agent: string, amount: bigint): MutationPlan {
  const n = seq++;
  return {
    now: NOW,
    entry: {
      entryId: `jrn_${n}`,
      kind: 'settlement',
      currency: CUR,
      postings: balancedPostings([
        { account: merchantAccount('merchant_m', CUR), amount },
        { account: agentAccount(agent, CUR, 'available'), amount: -amount },
      ]),
    },
  };
}

const kindsOf = (outcomes: Array<{ value: ApplyOutcome } | { error: string }>) => outcomes.map((o) => ('value' in o ? o.value.kind : o.error));

/** 50 plans: plain transfers, short balances, duplicate keys, a reused key, recorded refusals, a kill switch, guards. */
function mixedPlans(): MutationPlan[] {
  const plans: MutationPlan[] = [];
  for (let i = 0; i < 30; i++) plans.push(transfer(agents[i % 4], agents[(i + 1) % 4], BigInt(1 + i), i % 3 === 0 ? { key: `k_${i}`, fingerprint: `fp_${i}` } : undefined));
  plans.push(transfer('agent_p', 'agent_a', 3n, { key: 'p1', fingerprint: 'fp_p1' })); // applied (5 → 2)
  plans.push(transfer('agent_p', 'agent_a', 3n, { key: 'p2', fingerprint: 'fp_p2' })); // insufficient (2)
  plans.push(transfer('agent_p', 'agent_b', 2n)); // applied (2 → 0)
  plans.push(transfer('agent_a', 'agent_b', 7n, { key: 'dup', fingerprint: 'fp_dup' })); // applied
  plans.push(transfer('agent_a', 'agent_b', 7n, { key: 'dup', fingerprint: 'fp_dup' })); // replayed, same request
  plans.push(transfer('agent_a', 'agent_c', 9n, { key: 'dup', fingerprint: 'fp_other' })); // replayed, another request (key reused)
  plans.push({ now: NOW, idempotency: { scope: 'agent_b', key: 'refused', fingerprint: 'fp_r', operation: 'transfer' }, error: { grpc_code: 9, code: 'invalid_state', message: 'no' } }); // recorded
  plans.push(transfer('agent_b', 'agent_c', 1n, { key: 'refused', fingerprint: 'fp_r' })); // replayed: the stored refusal
  plans.push({ ...transfer('agent_c', 'agent_d', 4n), control: 'settlements' }); // blocked by the kill switch
  plans.push({ ...transfer('agent_d', 'agent_a', 4n), guard: { entity: 'hold', id: 'hold_missing', status: 'active' } }); // guard_failed (alone)
  while (plans.length < 50) plans.push(transfer(agents[plans.length % 4], agents[(plans.length + 2) % 4], 2n));
  return plans;
}

async function state(l: Ledger) {
  const q = async (text: string) => (await l.pool.query(text)).rows;
  // Whole rows (the set-based batch writes each table in one statement).
  return {
    accountRows: await q(`SELECT account_id, owner_id, currency, kind, balance::text FROM accounts ORDER BY account_id`),
    entryRows: await q(`SELECT * FROM journal_entries ORDER BY entry_id`),
    postings: await q(`SELECT entry_id, account_id, amount::text FROM postings ORDER BY entry_id, account_id`),
    transferRows: await q(`SELECT * FROM transfers ORDER BY transfer_id`),
    holds: await q(`SELECT * FROM holds ORDER BY hold_id`),
    keyRows: await q(`SELECT * FROM idempotency_keys ORDER BY scope, key`),
    events: await q(`SELECT id, type, payload, published_at FROM outbox_events ORDER BY id`),
  };
}

const settle = (p: Promise<ApplyOutcome>) => p.then((value) => ({ value }), (err: { code?: string }) => ({ error: err.code ?? String(err) }));

async function alone(l: Ledger, plans: MutationPlan[]) {
  const out = [];
  for (const plan of plans) out.push(await settle(l.writer.apply(plan)));
  return out;
}

/** Submits the plans in one tick (the batchable ones share one transaction). */
const submit = (l: Ledger, plans: MutationPlan[]) => Promise.all(plans.map((p) => settle(l.writer.apply(p))));

/**
 * Submits the plans while a second connection's open transaction holds what `hold` took; once
 * the batch waits for it, `meanwhile` runs (given that connection and the waiting backends), then
 * that transaction commits. Returns the plans' outcomes.
 */
async function whileHeld(
  l: Ledger,
  plans: MutationPlan[],
  hold: (other: pg.PoolClient) => Promise<unknown>,
  meanwhile?: (other: pg.PoolClient, waiters: number[]) => Promise<unknown>,
) {
  const other = await l.pool.connect();
  try {
    await other.query('BEGIN');
    await hold(other);
    const result = submit(l, plans);
    const waiters = await waitForLockWaiters(other, 1);
    await meanwhile?.(other, waiters);
    await other.query('COMMIT');
    return await result;
  } finally {
    other.release();
  }
}

describe('group commit on PostgreSQL', () => {
  let oracle: Ledger;
  let batched: Ledger;

  beforeEach(async () => {
    [oracle, batched] = await Promise.all([openLedger('gc_oracle'), openLedger('gc_batched', ONE_BATCH)]);
  });
  afterEach(async () => {
    await Promise.all([closeLedger(oracle), closeLedger(batched)]);
  });

  it('should give 50 plans in one batch each the outcome it gets alone, with one outbox event per applied plan', async () => {
    const plans = mixedPlans();
    const expected = await alone(oracle, plans);
    // Submitted in one tick: the batchable ones share one transaction, the guarded one goes alone.
    const got = await submit(batched, plans);

    expect(got).toEqual(expected);
    expect(batched.statements.filter((s) => s === 'wallet_apply_batch')).toHaveLength(1);
    expect(batched.statements.filter((s) => s === 'wallet_apply')).toHaveLength(1);
    expect(batched.kicks).toBe(1);
    const kinds = got.map((g) => ('value' in g ? g.value.kind : g.error));
    expect(kinds.slice(30, 40)).toEqual(['applied', 'insufficient', 'applied', 'applied', 'replayed', 'replayed', 'recorded', 'replayed', 'blocked', 'guard_failed']);
    const st = await state(batched);
    expect(st).toEqual(await state(oracle));
    const applied = plans.filter((_, i) => kinds[i] === 'applied').map((p) => (p.events![0] as { id: string }).id);
    expect(st.events.map((e) => e.id)).toEqual(applied.sort((a, b) => a.localeCompare(b)));
    expect((await checkLedger(batched.pool, NOW)).ok).toBe(true);
  });

  it('should roll a batch back when one plan raises and commit its neighbours one by one', async () => {
    // The fees account may never go below zero: a CHECK (23514) that wallet_apply does not pre-check.
    const raising: MutationPlan = {
      now: NOW,
      entry: {
        entryId: 'jrn_raise',
        kind: 'correction',
        currency: CUR,
        postings: balancedPostings([
          { account: systemAccount(CUR, 'fees'), amount: -5n },
          { account: agentAccount('agent_a', CUR, 'available'), amount: 5n },
        ]),
      },
    };
    const plans = [transfer('agent_a', 'agent_b', 1n, { key: 'n1', fingerprint: 'f1' }), raising, transfer('agent_b', 'agent_c', 2n), transfer('agent_c', 'agent_d', 3n)];
    const expected = await alone(oracle, plans);
    const got = await submit(batched, plans);

    expect(expected.map((e) => ('value' in e ? e.value.kind : e.error))).toEqual(['applied', 'insufficient_funds', 'applied', 'applied']);
    expect(got).toEqual(expected);
    expect(batched.statements).toEqual(['wallet_apply_batch', 'wallet_apply', 'wallet_apply', 'wallet_apply', 'wallet_apply']);
    expect(await state(batched)).toEqual(await state(oracle));
    expect(batched.kicks).toBe(1);
  });

  it('should retry a batch chosen as a deadlock victim and then commit all of it', async () => {
    const plans = [transfer('agent_a', 'agent_b', 1n), transfer('agent_c', 'agent_d', 2n)];
    const expected = await alone(oracle, plans);
    // Another transaction holds agent_d's account; the batch locks agent_a..agent_c, then waits.
    const got = await whileHeld(
      batched,
      plans,
      async (other) => {
        await other.query(`SET deadlock_timeout = '1h'`); // so that the batch, not this one, is the victim
        await other.query(`SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE`, [`agent_d/${CUR}/available`]);
      },
      // Now the cycle: this transaction wants a row the batch holds.
      (other) => other.query(`SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE`, [`agent_a/${CUR}/available`]),
    );
    expect(got).toEqual(expected);
    expect(batched.statements.filter((s) => s === 'wallet_apply_batch').length).toBeGreaterThanOrEqual(2);
    expect(batched.statements).not.toContain('wallet_apply');
    expect(await state(batched)).toEqual(await state(oracle));
  });

  it('should commit nothing of a batch whose connection is killed, then give every plan its own outcome', async () => {
    // The first plan waits for agent_d, also when the plans run again one by one.
    const plans = [transfer('agent_c', 'agent_d', 2n), transfer('agent_a', 'agent_b', 1n, { key: 'c1', fingerprint: 'f1' }), transfer('agent_b', 'agent_a', 3n, { key: 'c3', fingerprint: 'f3' })];
    const expected = await alone(oracle, plans);
    const got = await whileHeld(
      batched,
      plans,
      (other) => other.query(`SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE`, [`agent_d/${CUR}/available`]),
      async (other, [waiter]) => {
        await other.query('SELECT pg_terminate_backend($1)', [waiter]);
        // Nothing of the killed batch is visible (it had not committed): agent_a's balance is still the funding.
        expect((await other.query(`SELECT balance::text FROM accounts WHERE account_id = $1`, [`agent_a/${CUR}/available`])).rows).toEqual([{ balance: '1000' }]);
      },
    );
    expect(got).toEqual(expected);
    // The batch was sent and killed; its plans then ran one by one (the server ended the session:
    // a DatabaseError, 57P01), which is why every plan got its own outcome.
    expect(batched.statements).toEqual(['wallet_apply_batch', 'wallet_apply', 'wallet_apply', 'wallet_apply']);
    expect(await state(batched)).toEqual(await state(oracle));
    expect((await checkLedger(batched.pool, NOW)).ok).toBe(true);
  });

  it('should decide each plan from the plans before it: drained wallets, new accounts, keys, slow plans in between', async () => {
    const pre = transfer('agent_d', 'agent_a', 1n, { key: 'pre', fingerprint: 'fp_pre' });
    for (const l of [oracle, batched]) await l.writer.apply(pre);
    batched.statements.length = 0;
    const k = (key: string, fingerprint = `fp_${key}`) => ({ key, fingerprint });
    const plans = [
      transfer('agent_p', 'agent_a', 5n, k('drain')), // applied: agent_p 5 → 0
      transfer('agent_p', 'agent_a', 1n, k('short')), // insufficient (0)
      transfer('agent_p', 'agent_b', 1n, k('short')), // the same key: nothing was stored, insufficient again
      transfer('agent_a', 'agent_new', 10n), // applied: creates agent_new's account
      transfer('agent_new', 'agent_b', 4n, k('n1')), // applied: 10 → 6, from a credit of this batch
      transfer('agent_new', 'agent_b', 4n, k('n1')), // replayed: stored by the plan before
      transfer('agent_new', 'agent_c', 7n, k('n2')), // insufficient (6)
      hold('agent_new', 6n), // applied: 6 → 0 available, 6 held
      transfer('agent_new', 'agent_c', 1n), // insufficient (0)
      faucet('agent_new', 2n), // the faucet account goes (further) below zero: wallet_apply() in its place
      transfer('agent_a', 'agent_b', 2n, k('n1')), // applied: another scope
      transfer('agent_new', 'agent_b', 4n, k('n1')), // replayed: stored before the faucet plan
      transfer('agent_new', 'agent_c', 3n), // insufficient (2), read again after the faucet plan
      hold('agent_b', 3n, k('h1')), // applied
      hold('agent_b', 3n, k('h1')), // replayed
      transfer('agent_b', 'agent_p', 3n), // applied
      transfer('agent_p', 'agent_a', 3n), // applied: agent_p got 3 just before
      { now: NOW, idempotency: { scope: 'agent_c', key: 'e1', fingerprint: 'fp_e1', operation: 'transfer' }, error: { grpc_code: 9, code: 'invalid_state', message: 'no' } }, // recorded
      transfer('agent_c', 'agent_a', 1n, k('e1')), // replayed: the refusal
      transfer('agent_d', 'agent_a', 1n, k('pre')), // replayed: stored before the batch
      transfer('agent_d', 'agent_a', 1n, k('pre', 'fp_other')), // replayed: key reused
    ];
    const expected = await alone(oracle, plans);
    const got = await submit(batched, plans);

    expect(kindsOf(expected)).toEqual([
      'applied', 'insufficient', 'insufficient', 'applied', 'applied', 'replayed', 'insufficient', 'applied', 'insufficient', 'applied',
      'applied', 'replayed', 'insufficient', 'applied', 'replayed', 'applied', 'applied', 'recorded', 'replayed', 'replayed', 'replayed',
    ]);
    expect(expected.map((e) => ('value' in e && e.value.kind === 'insufficient' ? e.value.balance : null)).filter((b) => b !== null)).toEqual([0n, 0n, 6n, 0n, 2n]);
    expect(got).toEqual(expected);
    expect(batched.statements).toEqual(['wallet_apply_batch']);
    expect(await state(batched)).toEqual(await state(oracle));
    expect((await checkLedger(batched.pool, NOW)).ok).toBe(true);
  });

  it('should not net a balance CHECK over the batch: a debit it refuses is refused even if a later plan covers it', async () => {
    // Out of the (empty) fees account, then into it: alone, the first hits the CHECK (23514).
    const plans = [feesCorrection('agent_a', -5n), feesCorrection('agent_b', 5n), transfer('agent_c', 'agent_d', 1n)];
    const expected = await alone(oracle, plans);
    const got = await submit(batched, plans);

    expect(kindsOf(expected)).toEqual(['insufficient_funds', 'applied', 'applied']);
    expect(got).toEqual(expected);
    expect(batched.statements).toEqual(['wallet_apply_batch', 'wallet_apply', 'wallet_apply', 'wallet_apply']);
    expect(await state(batched)).toEqual(await state(oracle));
  });

  it('should not net a CHECK over the batch for an account the batch itself drained: a merchant settlement drained, overdrawn, refilled', async () => {
    const fund = merchantMove('agent_a', 5n);
    for (const l of [oracle, batched]) await l.writer.apply(fund);
    batched.statements.length = 0;
    // The second plan takes the account (5 → 0 after the first) below zero: alone, the CHECK
    // (23514). Decided in variables from the batch's start (5), or netted with the refill after
    // it, it would pass; it goes through wallet_apply() in its place instead.
    const plans = [merchantMove('agent_b', -5n), merchantMove('agent_c', -3n), merchantMove('agent_d', 10n), transfer('agent_a', 'agent_b', 1n)];
    const expected = await alone(oracle, plans);
    const got = await submit(batched, plans);

    expect(kindsOf(expected)).toEqual(['applied', 'insufficient_funds', 'applied', 'applied']);
    expect(got).toEqual(expected);
    expect(batched.statements).toEqual(['wallet_apply_batch', 'wallet_apply', 'wallet_apply', 'wallet_apply', 'wallet_apply']);
    expect(await state(batched)).toEqual(await state(oracle));
  });

  it('should answer every plan of a batch blocked while read-only, storing nothing', async () => {
    for (const l of [oracle, batched]) await l.pool.query(`UPDATE controls SET read_only = true WHERE id = 1`);
    const plans: MutationPlan[] = [
      transfer('agent_a', 'agent_b', 1n, { key: 'ro', fingerprint: 'f' }),
      { now: NOW, idempotency: { scope: 'agent_b', key: 'ro_e', fingerprint: 'f', operation: 'transfer' }, error: { grpc_code: 9, code: 'invalid_state', message: 'no' } },
      { ...transfer('agent_c', 'agent_d', 1n), control: 'settlements' },
      hold('agent_a', 1n),
    ];
    const expected = await alone(oracle, plans);
    const got = await submit(batched, plans);

    expect(expected).toEqual(plans.map(() => ({ value: { kind: 'blocked', reason: 'read_only' } })));
    expect(got).toEqual(expected);
    expect(batched.statements).toEqual(['wallet_apply_batch']);
    expect(await state(batched)).toEqual(await state(oracle));
  });

  it('should run the plans one by one when a key of the batch is stored concurrently after its lookup', async () => {
    const stored = `INSERT INTO idempotency_keys (scope, key, operation, fingerprint, outcome, response, error, journal_entry_id, created_at, expires_at)
                    VALUES ('agent_a', 'race', 'transfer', 'fp_first', 'succeeded', '{"first":true}', NULL, NULL, $1, $1)`;
    const plans = [transfer('agent_a', 'agent_b', 1n, { key: 'race', fingerprint: 'fp_race' }), transfer('agent_b', 'agent_c', 2n)];
    await oracle.pool.query(stored, [NOW]);
    const expected = await alone(oracle, plans);
    // The batch's key insertion waits for this one.
    expect(await whileHeld(batched, plans, (other) => other.query(stored, [NOW]))).toEqual(expected);
    expect(kindsOf(expected)).toEqual(['replayed', 'applied']);
    expect(batched.statements).toEqual(['wallet_apply_batch', 'wallet_apply', 'wallet_apply']);
    expect(await state(batched)).toEqual(await state(oracle));
  });

  const N = `agent_n/${CUR}/available`;
  const createN = `INSERT INTO accounts (account_id, owner_id, currency, kind, balance) VALUES ('${N}', 'agent_n', '${CUR}', 'available', 100)`;

  it('should run the plans one by one when an account the batch counted as missing is committed by another transaction meanwhile', async () => {
    await oracle.pool.query(createN);
    // The batch credits agent_n (missing for it: the other insert is not committed) and debits
    // it; creating the account, it meets the other transaction's row and waits for it.
    const plans = [transfer('agent_a', 'agent_n', 5n), transfer('agent_n', 'agent_b', 50n)];
    const expected = await alone(oracle, plans);
    expect(await whileHeld(batched, plans, (other) => other.query(createN))).toEqual(expected);
    expect(kindsOf(expected)).toEqual(['applied', 'applied']);
    expect(batched.statements).toEqual(['wallet_apply_batch', 'wallet_apply', 'wallet_apply']);
    expect(await state(batched)).toEqual(await state(oracle));
  });

  it('should see an account committed while the batch waited for its locks', async () => {
    await oracle.pool.query(createN);
    const plans = [transfer('agent_a', 'agent_b', 1n), transfer('agent_n', 'agent_c', 50n)];
    const expected = await alone(oracle, plans);
    // The batch's lock statement waits for agent_a; agent_n is committed before it resumes,
    // so that statement does not return it (its snapshot is older): counted again, it is.
    const got = await whileHeld(batched, plans, async (other) => {
      await other.query(`UPDATE accounts SET balance = balance WHERE account_id = $1`, [`agent_a/${CUR}/available`]);
      await other.query(createN);
    });
    expect(got).toEqual(expected);
    expect(kindsOf(expected)).toEqual(['applied', 'applied']);
    expect(batched.statements).toEqual(['wallet_apply_batch']);
    expect(await state(batched)).toEqual(await state(oracle));
  });

  it('should lock and read an account committed while a slow plan of the batch ran, for the plans after it', async () => {
    const storedKey = `INSERT INTO idempotency_keys (scope, key, operation, fingerprint, outcome, response, error, journal_entry_id, created_at, expires_at)
                       VALUES ('agent_a', 'slow', 'faucet', 'fp_first', 'succeeded', '{"first":true}', NULL, NULL, $1, $1)`;
    // A faucet grant (the faucet account goes further below zero: wallet_apply() in its place)
    // whose key another transaction stores, with agent_n's account, uncommitted: the slow plan's
    // key insertion waits for it. Then a debit of agent_n, which exists once that commits.
    const slow: MutationPlan = { ...faucet('agent_a', 2n), idempotency: { scope: 'agent_a', key: 'slow', fingerprint: 'fp_slow', operation: 'faucet' } };
    const plans = [slow, transfer('agent_n', 'agent_c', 50n)];
    await oracle.pool.query(storedKey, [NOW]);
    await oracle.pool.query(createN);
    const expected = await alone(oracle, plans);
    const got = await whileHeld(batched, plans, async (other) => {
      await other.query(storedKey, [NOW]);
      await other.query(createN);
    });

    expect(kindsOf(expected)).toEqual(['replayed', 'applied']);
    expect(got).toEqual(expected);
    expect(batched.statements).toEqual(['wallet_apply_batch']);
    expect(await state(batched)).toEqual(await state(oracle));
  });
});

/** Backends of this database waiting for a lock, once there are `n` (polled: no timing assumed). */
async function waitForLockWaiters(client: pg.PoolClient, n: number): Promise<number[]> {
  for (;;) {
    await client.query('SELECT pg_stat_clear_snapshot()'); // a transaction otherwise sees one snapshot of the activity
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (rows.length >= n) return rows.map((r) => r.pid);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
