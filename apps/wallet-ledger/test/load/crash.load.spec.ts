import { findFreePortRange } from '@exchange/db';
import { formatAmount, parseAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, type FakeIdentity, type TestDatabase } from '@exchange/testing';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { prng } from '@exchange/testing';
import { codeOf, inParallel, outcome, tally, type Outcome } from './support/outcome';
import { balanceOf, baseLedgerEnv, expectLedgerConsistent, walletClient, type Money, type WalletClient } from './support/ledger';
import { spawnLedgerProcess, type LedgerProcess } from './support/ledger-process';

// wallet-ledger killed with SIGKILL in the middle of a transfer load (no shutdown hook runs),
// restarted on the same database, and every key retried: each transfer takes effect exactly once
// whatever the moment of the crash, and nothing that was acknowledged is lost.
const WALLETS = 8;
const FUNDING = parseAmount('150');
const PLANNED = 2_000;
const IN_FLIGHT = 32;
const KILL_AFTER_ACKS = 800;
const SEED = Number(process.env.LOAD_SEED ?? 7);

interface Attempt {
  req: walletV1.TransferRequest;
  first?: Outcome<walletV1.TransferResponse>;
  /** Answered before the kill was issued (so it cannot have been cut by it). */
  beforeKill?: boolean;
}

describe('wallet-ledger killed mid-load (SIGKILL) and restarted', () => {
  let db: TestDatabase;
  let identity: FakeIdentity;
  let proc: LedgerProcess | undefined;
  let sql: pg.Pool;
  const clients: WalletClient[] = [];
  const run = randomBytes(3).toString('hex');
  const wallets = Array.from({ length: WALLETS }, (_, i) => `crash-${run}:agent:w${i}`);

  beforeAll(async () => {
    db = await createTestDatabase('load_crash');
    identity = await startFakeIdentity(wallets.map((agentId) => ({ agentId })));
    sql = new pg.Pool({ connectionString: db.url, max: 1 });
    sql.on('error', () => undefined);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await proc?.stop();
    await sql?.end();
    await identity?.close();
    await db?.drop();
  });

  it('applies every transfer key exactly once across the crash and loses nothing acknowledged', async () => {
    const port = await findFreePortRange(1); // below the ephemeral range: still free when the process restarts on it
    const env = { ...baseLedgerEnv(db.url, identity.address), LOG_LEVEL: 'warn' };
    proc = await spawnLedgerProcess(env, { port });
    const before = walletClient(proc.address);
    clients.push(before);
    for (const agentId of wallets) {
      await before.faucet({ agentId, amount: formatAmount(FUNDING), currency: 'CREDIT', category: 'crash', idempotencyKey: `fund-${agentId}` });
    }

    // Known keys and payloads, decided before anything is sent.
    const rnd = prng(SEED);
    const attempts: Attempt[] = Array.from({ length: PLANNED }, (_, i) => {
      const from = wallets[Math.floor(rnd() * WALLETS)];
      let to = wallets[Math.floor(rnd() * WALLETS)];
      if (to === from) to = wallets[(wallets.indexOf(from) + 1) % WALLETS];
      const amount = formatAmount(10_000n + BigInt(Math.floor(rnd() * 3_000_000)));
      return { req: { agentId: from, toAgentId: to, amount, currency: 'CREDIT', memo: undefined, idempotencyKey: `crash-${run}-${i}` } };
    });

    // Load until enough transfers were acknowledged, then kill the whole process group while
    // IN_FLIGHT calls are still on the wire.
    let next = 0;
    let acks = 0;
    let killed: Promise<void> | undefined;
    const victim = proc;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (killed === undefined && next < PLANNED) {
          const attempt = attempts[next++];
          attempt.first = await outcome(before.transfer(attempt.req));
          attempt.beforeKill = killed === undefined;
          if (attempt.first.ok && ++acks >= KILL_AFTER_ACKS && killed === undefined) killed = victim.crash();
        }
      }),
    );
    await killed;
    const sent = attempts.filter((a) => a.first !== undefined);
    // Before the kill only business answers; the calls it cut off fail as unavailable.
    expect(sent.filter((a) => a.beforeKill && !['ok', 'insufficient_funds'].includes(codeOf(a.first!)))).toEqual([]);
    expect(Object.keys(tally(sent.filter((a) => !a.beforeKill).map((a) => codeOf(a.first!)))).filter((c) => !['ok', 'insufficient_funds', 'unavailable'].includes(c))).toEqual([]);
    expect(sent.filter((a) => a.first!.ok).length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    // Restart on the same database and port; retry every key that was sent, same payload.
    proc = await spawnLedgerProcess(env, { port });
    const after = walletClient(proc.address);
    clients.push(after);
    const retries = await inParallel(sent.length, IN_FLIGHT, async (i) => {
      // A duplicate still marked as running would be a key the crash wedged: allow it to clear.
      for (let tries = 0; ; tries++) {
        const o = await outcome(after.transfer(sent[i].req));
        if (o.ok || o.code !== 'idempotency_in_progress' || tries >= 50) return o;
        await new Promise((r) => setTimeout(r, 200));
      }
    });
    const retryCodes = tally(retries.map(codeOf));
    expect(Object.keys(retryCodes).filter((c) => c !== 'ok' && c !== 'insufficient_funds')).toEqual([]);

    // Nothing acknowledged is lost or redone: the retry replays the very same transfer.
    const problems: unknown[] = [];
    sent.forEach((a, i) => {
      const first = a.first!;
      const retry = retries[i];
      if (first.ok) {
        if (!retry.ok || !retry.value.idempotentReplayed || retry.value.transfer?.transferId !== first.value.transfer?.transferId) {
          problems.push({ key: a.req.idempotencyKey, first: first.value.transfer?.transferId, retry });
        }
      } else if (first.code === 'insufficient_funds' && codeOf(retry) !== 'insufficient_funds') {
        problems.push({ key: a.req.idempotencyKey, first: first.code, retry: codeOf(retry) });
      }
    });
    expect(problems.slice(0, 5)).toEqual([]);

    // Balances are exactly the funding plus each key that succeeded, once.
    const model = new Map<string, Money>(wallets.map((w) => [w, { available: FUNDING, held: 0n }]));
    const succeeded = sent.filter((_, i) => retries[i].ok);
    for (const { req } of succeeded) {
      model.get(req.agentId)!.available -= parseAmount(req.amount);
      model.get(req.toAgentId)!.available += parseAmount(req.amount);
    }
    for (const w of wallets) expect([w, await balanceOf(after, w)]).toEqual([w, model.get(w)]);

    // One transfer and one event per successful key, no more.
    const transferIds = new Set(retries.filter((r) => r.ok).map((r) => (r as { value: walletV1.TransferResponse }).value.transfer!.transferId));
    expect(transferIds.size).toBe(succeeded.length);
    const { rows } = await sql.query<{ id: string }>(
      `SELECT payload->'data'->'transfer'->>'transferId' AS id FROM outbox_events WHERE type = 'exchange.wallet.transfer.completed'`,
    );
    expect(rows.map((r) => r.id).sort()).toEqual([...transferIds].sort());

    await expectLedgerConsistent(after);
    expect(await proc.stop()).toBe(0);
    proc = undefined;
  }, 240_000);
});
