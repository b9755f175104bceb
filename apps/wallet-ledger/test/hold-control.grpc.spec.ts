import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { status } from '@grpc/grpc-js';
import { readMigrationFiles, runMigrations } from '@exchange/db';
import { walletV1 } from '@exchange/proto';
import { createTestDatabase, testLogger } from '@exchange/testing';
import { agentId, balancesOf, fund, grpcError, key, outboxCount, startTestWallet, type TestWallet } from './wallet-harness';

const { HoldStatus } = walletV1;

// Issue 12 finding 2: a hold records who controls it. The agent's own holds move through
// ReleaseHold/ConsumeHold (the wallet routes); the market's escrow only through the market's
// Settle/Refund. Any other path answers PERMISSION_DENIED hold_controlled_by_<controller> and
// moves nothing; the sweeper never expires a service's hold.

describe('wallet-ledger gRPC: who controls a hold', () => {
  let t: TestWallet;
  let offsetMs = 0;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_hold_control', clock: () => new Date(Date.now() + offsetMs) });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function parties(funds = '100') {
    const buyer = agentId('buyer');
    const seller = agentId('seller');
    const third = agentId('third');
    for (const a of [buyer, seller, third]) t.identity.put({ agentId: a });
    await fund(t.client, buyer, funds);
    return { buyer, seller, third };
  }

  const escrow = (buyer: string, amount = '60') =>
    t.client.createHold({ agentId: buyer, amount, currency: 'CREDIT', reference: 'ctr_escrow', idempotencyKey: key(), controller: 'market' });

  it('should record the controller: agent by default (absent, "" or "agent"), a service when named', async () => {
    const { buyer } = await parties();
    expect((await t.client.createHold({ agentId: buyer, amount: '1', currency: 'CREDIT', idempotencyKey: key() })).hold!.controller).toBe('agent');
    expect((await t.client.createHold({ agentId: buyer, amount: '1', currency: 'CREDIT', idempotencyKey: key(), controller: '' })).hold!.controller).toBe('agent');
    expect((await t.client.createHold({ agentId: buyer, amount: '1', currency: 'CREDIT', idempotencyKey: key(), controller: 'agent' })).hold!.controller).toBe('agent');
    const { hold } = await escrow(buyer, '2');
    expect(hold!.controller).toBe('market');
    expect((await t.client.getHold({ agentId: buyer, holdId: hold!.holdId })).hold!.controller).toBe('market');
    const { rows } = await t.sql.query(`SELECT controller FROM holds WHERE hold_id = $1`, [hold!.holdId]);
    expect(rows[0].controller).toBe('market');
  });

  it('should refuse a malformed controller and an expiry on a service-controlled hold, storing nothing', async () => {
    const { buyer } = await parties();
    const before = await outboxCount(t.sql);
    for (const controller of ['Market', 'mkt-1', ' market', 'x'.repeat(33), 'market\u0000']) {
      expect(await grpcError(t.client.createHold({ agentId: buyer, amount: '1', currency: 'CREDIT', idempotencyKey: key(), controller }))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'validation_failed',
        details: { field: 'controller' },
      });
    }
    const expiresAt = new Date(Date.now() + 60_000);
    expect(await grpcError(t.client.createHold({ agentId: buyer, amount: '1', currency: 'CREDIT', idempotencyKey: key(), controller: 'market', expiresAt }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
      details: { field: 'expires_at' },
    });
    expect(await outboxCount(t.sql)).toBe(before);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '100', held: '0' } });
  });

  it('should refuse ReleaseHold and ConsumeHold of the market escrow (hold_controlled_by_market): nothing moves, Settle still pays', async () => {
    const { buyer, seller, third } = await parties();
    const { hold } = await escrow(buyer, '60');
    const holdId = hold!.holdId;
    const before = await outboxCount(t.sql);
    const attempts = [
      () => t.client.releaseHold({ agentId: buyer, holdId, idempotencyKey: key() }),
      () => t.client.consumeHold({ agentId: buyer, holdId, toAgentId: seller, idempotencyKey: key() }),
      () => t.client.consumeHold({ agentId: buyer, holdId, toAgentId: third, idempotencyKey: key() }),
      () => t.client.consumeHold({ agentId: buyer, holdId, toAgentId: third, amount: '1', idempotencyKey: key() }),
    ];
    for (const attempt of attempts) {
      expect(await grpcError(attempt())).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'hold_controlled_by_market',
        details: { hold_id: holdId, controller: 'market' },
      });
    }
    // Other agents' wallets do not have it at all.
    for (const other of [seller, third]) {
      expect(await grpcError(t.client.releaseHold({ agentId: other, holdId, idempotencyKey: key() }))).toMatchObject({ code: 'hold_not_found' });
    }
    expect(await outboxCount(t.sql)).toBe(before);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '40', held: '60' } });
    expect((await t.client.getHold({ agentId: buyer, holdId })).hold!.status).toBe(HoldStatus.HOLD_STATUS_ACTIVE);
    // The refusal is not stored with the key: the same key is still free for its first real use.
    const k = key();
    expect(await grpcError(t.client.releaseHold({ agentId: buyer, holdId, idempotencyKey: k }))).toMatchObject({ code: 'hold_controlled_by_market' });
    const { rows } = await t.sql.query(`SELECT 1 FROM idempotency_keys WHERE scope = $1 AND key = $2`, [buyer, k]);
    expect(rows).toHaveLength(0);

    const settled = await t.client.settle({ agentId: buyer, holdId, contractId: 'ctr_escrow', payeeAgentId: seller, fee: '0.6', idempotencyKey: key() });
    expect(settled.hold).toMatchObject({ status: HoldStatus.HOLD_STATUS_CONSUMED, controller: 'market' });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '40', held: '0' } });
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '59.4', held: '0' } });
    // Controlled before anything else: a moved escrow still answers its controller, not invalid_state.
    expect(await grpcError(t.client.releaseHold({ agentId: buyer, holdId, idempotencyKey: key() }))).toMatchObject({ code: 'hold_controlled_by_market' });
  });

  it("should refuse Settle and Refund of the agent's own hold (hold_controlled_by_agent): only the agent's path moves it", async () => {
    const { buyer, seller } = await parties();
    const { hold } = await t.client.createHold({ agentId: buyer, amount: '30', currency: 'CREDIT', idempotencyKey: key() });
    const holdId = hold!.holdId;
    for (const call of [
      t.client.settle({ agentId: buyer, holdId, contractId: 'ctr_x', payeeAgentId: seller, idempotencyKey: key() }),
      t.client.refund({ agentId: buyer, holdId, contractId: 'ctr_x', idempotencyKey: key() }),
    ]) {
      expect(await grpcError(call)).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'hold_controlled_by_agent' });
    }
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '70', held: '30' } });
    await t.client.consumeHold({ agentId: buyer, holdId, toAgentId: seller, amount: '10', idempotencyKey: key() });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '90', held: '0' } });
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '10', held: '0' } });
  });

  it('should never expire a service-controlled hold in the sweeper, even one given an expires_at behind the service', async () => {
    const { buyer } = await parties();
    const { hold } = await escrow(buyer, '25');
    // Only possible by writing the row directly (CreateHold refuses it): the sweeper is the backstop.
    await t.sql.query(`UPDATE holds SET expires_at = now() WHERE hold_id = $1`, [hold!.holdId]);
    const own = await t.client.createHold({ agentId: buyer, amount: '5', currency: 'CREDIT', idempotencyKey: key(), expiresAt: new Date(Date.now() + 60_000) });
    offsetMs = 120_000;
    try {
      await t.wallet.workers.sweepHolds();
    } finally {
      offsetMs = 0;
    }
    expect((await t.client.getHold({ agentId: buyer, holdId: own.hold!.holdId })).hold!.status).toBe(HoldStatus.HOLD_STATUS_EXPIRED);
    expect((await t.client.getHold({ agentId: buyer, holdId: hold!.holdId })).hold!.status).toBe(HoldStatus.HOLD_STATUS_ACTIVE);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '75', held: '25' } });
    await t.client.refund({ agentId: buyer, holdId: hold!.holdId, contractId: 'ctr_escrow', idempotencyKey: key() });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '100', held: '0' } });
  });
});

describe('migration hold_controller: backfill of the escrow made before it', () => {
  it("marks the market's escrow (saga key mkt:<contract>:award:…, or named by a receipt) market, and every other hold agent", async () => {
    const migrations = path.join(__dirname, '..', 'prisma', 'migrations');
    const all = readMigrationFiles(migrations).map((m) => m.name);
    const target = all.findIndex((name) => name.endsWith('_hold_controller'));
    expect(target).toBeGreaterThan(0);
    const before = mkdtempSync(path.join(tmpdir(), 'wallet-migrations-'));
    for (const name of all.slice(0, target)) cpSync(path.join(migrations, name), path.join(before, name), { recursive: true });
    const db = await createTestDatabase('wallet_backfill');
    const sql = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await runMigrations({ connectionString: db.url, migrationsDir: before, logger: testLogger });
      const hold = (id: string, agent: string, reference: string | null, entry: string) =>
        sql.query(
          `INSERT INTO holds (hold_id, agent_id, amount, currency, status, reference, journal_entry_ids, created_at, updated_at)
           VALUES ($1, $2, 10, 'CREDIT', 'active', $3, ARRAY[$4], now(), now())`,
          [id, agent, reference, entry],
        );
      const entry = (id: string, scope: string, k: string, kind = 'hold_create') =>
        sql.query(`INSERT INTO journal_entries (entry_id, kind, currency, idempotency_scope, idempotency_key, created_at) VALUES ($1, $2, 'CREDIT', $3, $4, now())`, [id, kind, scope, k]);
      const buyer = 't:agent:buyer';
      // The market's award: reference = contract id, key mkt:<contract>:award:<step>, scope = the buyer.
      await entry('jrn_1', buyer, 'mkt:ctr_1:award:stp_1');
      await hold('hld_market_active', buyer, 'ctr_1', 'jrn_1');
      // Settled escrow (a receipt names it), whatever its key.
      await entry('jrn_2', buyer, 'mkt:ctr_2:award:stp_2');
      await hold('hld_market_settled', buyer, 'ctr_2', 'jrn_2');
      await sql.query(
        `INSERT INTO receipts (receipt_id, kind, contract_id, hold_id, payer, payee, amount, fee, refunded_amount, currency, journal_entry_ids, settled_at, signature, signer_public_key)
         VALUES ('rcpt_1', 'settlement', 'ctr_2', 'hld_market_settled', $1, 't:agent:seller', 10, 0, 0, 'CREDIT', ARRAY['jrn_2'], now(), 's', 'k')`,
        [buyer],
      );
      // The agent's own holds: a key of its own; a market-looking key for another contract than its reference; no reference.
      await entry('jrn_3', buyer, 'my-own-key');
      await hold('hld_agent', buyer, 'ctr_3', 'jrn_3');
      await entry('jrn_4', buyer, 'mkt:ctr_9:award:stp_4');
      await hold('hld_agent_mismatch', buyer, 'ctr_4', 'jrn_4');
      await entry('jrn_5', buyer, 'mkt:ctr_5:award:stp_5');
      await hold('hld_agent_noref', buyer, null, 'jrn_5');
      // Another scope than the hold's owner.
      await entry('jrn_6', 't:agent:other', 'mkt:ctr_6:award:stp_6');
      await hold('hld_agent_scope', buyer, 'ctr_6', 'jrn_6');

      const { applied } = await runMigrations({ connectionString: db.url, migrationsDir: migrations, logger: testLogger });
      expect(applied).toEqual(all.slice(target));
      const { rows } = await sql.query(`SELECT hold_id, controller FROM holds ORDER BY hold_id`);
      expect(Object.fromEntries(rows.map((r) => [r.hold_id, r.controller]))).toEqual({
        hld_agent: 'agent',
        hld_agent_mismatch: 'agent',
        hld_agent_noref: 'agent',
        hld_agent_scope: 'agent',
        hld_market_active: 'market',
        hld_market_settled: 'market',
      });
      await expect(sql.query(`UPDATE holds SET controller = 'Market!' WHERE hold_id = 'hld_agent'`)).rejects.toThrow(/holds_controller_name/);
    } finally {
      await sql.end();
      await db.drop();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
