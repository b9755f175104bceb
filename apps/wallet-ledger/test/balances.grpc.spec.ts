import { status } from '@grpc/grpc-js';
import { identityV1 } from '@exchange/proto';
import { agentId, balancesOf, fund, grpcError, key, outboxCount, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

describe('wallet-ledger gRPC: balances, faucet and transfers', () => {
  let t: TestWallet;
  const alice = agentId('alice');
  const bob = agentId('bob');
  const frozen = agentId('frozen');
  const basic = agentId('basic');

  beforeAll(async () => {
    t = await startTestWallet({
      name: 'wallet_balances',
      agents: [
        { agentId: alice },
        { agentId: bob },
        { agentId: frozen, frozen: true },
        { agentId: basic, level: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GetBalance', () => {
    it('should show a new wallet with CREDIT 0', async () => {
      const res = await t.client.getBalance({ agentId: bob });
      expect(res.balances).toEqual([{ currency: 'CREDIT', available: '0', held: '0', total: '0' }]);
      expect(res.agentId).toBe(bob);
      expect(res.asOf).toBeInstanceOf(Date);
    });

    it('should answer agent_not_found for an agent identity does not know', async () => {
      expect(await grpcError(t.client.getBalance({ agentId: 'nobody:agent:x' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'agent_not_found' });
    });

    it('should still show a frozen agent its balance', async () => {
      expect((await t.client.getBalance({ agentId: frozen })).balances).toHaveLength(1);
    });
  });

  describe('Faucet', () => {
    it('should grant credits, count them against the category cap and emit faucet.granted', async () => {
      const a = agentId('faucet');
      t.identity.put({ agentId: a });
      const res = await t.client.faucet({ agentId: a, amount: '120', currency: '', category: 'compute', idempotencyKey: key() });
      expect(res.grant).toMatchObject({ agentId: a, amount: '120', currency: 'CREDIT', category: 'compute', grantedToday: '120', remainingToday: '80' });
      expect(res.grant!.faucetGrantId).toMatch(/^fgr_/);
      expect(res.grant!.journalEntryId).toMatch(/^jrn_/);
      const next = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1));
      expect(res.grant!.resetsAt).toEqual(next);
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '120', held: '0' } });
      expect(await outboxOf(t.sql, a)).toEqual([{ type: 'exchange.wallet.faucet.granted', data: { grant: expect.objectContaining({ amount: '120', grantedToday: '120' }) } }]);
    });

    it('should refuse a grant over the remaining cap whole, with resets_at, and allow another category', async () => {
      const a = agentId('cap');
      t.identity.put({ agentId: a });
      await t.client.faucet({ agentId: a, amount: '150', currency: 'CREDIT', category: 'c1', idempotencyKey: key() });
      const err = await grpcError(t.client.faucet({ agentId: a, amount: '50.000001', currency: 'CREDIT', category: 'c1', idempotencyKey: key() }));
      expect(err).toMatchObject({ grpcCode: status.RESOURCE_EXHAUSTED, code: 'faucet_cap_exceeded', details: expect.objectContaining({ remaining_today: '50', category: 'c1' }) });
      expect(err.details!['resets_at']).toMatch(/T00:00:00.000Z$/);
      await t.client.faucet({ agentId: a, amount: '50', currency: 'CREDIT', category: 'c1', idempotencyKey: key() });
      await t.client.faucet({ agentId: a, amount: '200', currency: 'CREDIT', category: 'c2', idempotencyKey: key() });
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '400', held: '0' } });
      expect((await outboxOf(t.sql, a)).map((e) => e.type)).toEqual(Array(3).fill('exchange.wallet.faucet.granted'));
    });

    it('should never exceed the cap under concurrent grants', async () => {
      const a = agentId('cap-race');
      t.identity.put({ agentId: a });
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () => t.client.faucet({ agentId: a, amount: '20', currency: 'CREDIT', category: 'race', idempotencyKey: key() })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '200', held: '0' } });
    });

    it.each([
      [{ currency: 'EUR' }, status.INVALID_ARGUMENT, 'unsupported_currency'],
      [{ amount: '0' }, status.INVALID_ARGUMENT, 'invalid_amount'],
      [{ amount: '1.0000001' }, status.INVALID_ARGUMENT, 'invalid_amount'],
      [{ category: '' }, status.INVALID_ARGUMENT, 'validation_failed'],
      [{ idempotencyKey: '' }, status.INVALID_ARGUMENT, 'idempotency_key_required'],
      [{ idempotencyKey: 'x'.repeat(256) }, status.INVALID_ARGUMENT, 'invalid_idempotency_key'],
    ])('should refuse %j with %s %s', async (change, grpcCode, code) => {
      const req = { agentId: alice, amount: '1', currency: 'CREDIT', category: 'v', idempotencyKey: key(), ...change };
      expect(await grpcError(t.client.faucet(req))).toMatchObject({ grpcCode, code });
    });

    it('should grant every identity level in sandbox (capabilities are cumulative), refuse frozen and unknown agents', async () => {
      const req = (agent: string) => ({ agentId: agent, amount: '1', currency: 'CREDIT', category: 'v', idempotencyKey: key() });
      expect((await t.client.faucet(req(basic))).grant).toMatchObject({ agentId: basic, amount: '1', currency: 'CREDIT' });
      expect(await balancesOf(t.client, basic)).toEqual({ CREDIT: { available: '1', held: '0' } });
      expect(await grpcError(t.client.faucet(req(frozen)))).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'agent_frozen' });
      expect(await grpcError(t.client.faucet(req('nobody:agent:x')))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'agent_not_found' });
      expect((await outboxOf(t.sql, basic)).map((e) => e.type)).toEqual(['exchange.wallet.faucet.granted']);
      expect(await outboxOf(t.sql, frozen)).toEqual([]);
    });

    it('should grant CREDIT only: QQQ (not ISO 4217) and USD are unsupported_currency, empty means CREDIT', async () => {
      const a = agentId('faucet-cur');
      t.identity.put({ agentId: a });
      for (const currency of ['QQQ', 'USD']) {
        expect(await grpcError(t.client.faucet({ agentId: a, amount: '1', currency, category: 'c', idempotencyKey: key() }))).toMatchObject({
          grpcCode: status.INVALID_ARGUMENT,
          code: 'unsupported_currency',
        });
      }
      expect((await t.client.faucet({ agentId: a, amount: '1', currency: '', category: 'c', idempotencyKey: key() })).grant?.currency).toBe('CREDIT');
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '1', held: '0' } });
    });
  });

  describe('Faucet in mainnet mode', () => {
    afterAll(async () => {
      await t.restart();
    });

    it('should not exist: faucet_unavailable for every agent, before any validation, nothing granted', async () => {
      await t.restart({ EXCHANGE_ENV: 'mainnet' });
      const a = agentId('mainnet-faucet');
      t.identity.put({ agentId: a, level: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC });
      for (const req of [
        { agentId: a, amount: '1', currency: 'CREDIT', category: 'v', idempotencyKey: key() },
        { agentId: alice, amount: '1', currency: 'CREDIT', category: 'v', idempotencyKey: key() },
        { agentId: a, amount: '0', currency: 'QQQ', category: '', idempotencyKey: '' },
      ]) {
        const err = await grpcError(t.client.faucet(req));
        expect(err).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'faucet_unavailable' });
        expect(err.message).toMatch(/only in sandbox/);
      }
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '0', held: '0' } });
      expect(await outboxOf(t.sql, a)).toEqual([]);
    });
  });

  describe('Transfer', () => {
    it('should move funds, record the transfer and emit transfer.completed', async () => {
      const from = agentId('from');
      const to = agentId('to');
      t.identity.put({ agentId: from });
      t.identity.put({ agentId: to });
      await fund(t.client, from, '50');
      const res = await t.client.transfer({ agentId: from, toAgentId: to, amount: '12.5', currency: 'CREDIT', memo: 'thanks', idempotencyKey: key() });
      expect(res).toEqual({
        transfer: {
          transferId: expect.stringMatching(/^trf_/),
          fromAgentId: from,
          toAgentId: to,
          amount: '12.5',
          currency: 'CREDIT',
          memo: 'thanks',
          journalEntryId: expect.stringMatching(/^jrn_/),
          createdAt: expect.any(Date),
        },
        idempotentReplayed: false,
      });
      expect(await balancesOf(t.client, from)).toEqual({ CREDIT: { available: '37.5', held: '0' } });
      expect(await balancesOf(t.client, to)).toEqual({ CREDIT: { available: '12.5', held: '0' } });
      const events = await outboxOf(t.sql, from);
      expect(events.map((e) => e.type)).toEqual(['exchange.wallet.faucet.granted', 'exchange.wallet.transfer.completed']);
      expect(events[1].data.transfer).toMatchObject({ transferId: res.transfer!.transferId, amount: '12.5', toAgentId: to });
    });

    it('should replay the same key and request with the identical response, executing once', async () => {
      const from = agentId('replay');
      t.identity.put({ agentId: from });
      await fund(t.client, from, '10');
      const req = { agentId: from, toAgentId: bob, amount: '3', currency: 'CREDIT', memo: undefined, idempotencyKey: key() };
      const first = await t.client.transfer(req);
      const events = await outboxCount(t.sql);
      const again = await t.client.transfer(req);
      expect(again).toEqual({ ...first, idempotentReplayed: true });
      expect(await balancesOf(t.client, from)).toEqual({ CREDIT: { available: '7', held: '0' } });
      expect(await outboxCount(t.sql)).toBe(events);
    });

    it('should refuse the same key with another request as idempotency_key_reused', async () => {
      const from = agentId('reuse');
      t.identity.put({ agentId: from });
      await fund(t.client, from, '10');
      const k = key();
      await t.client.transfer({ agentId: from, toAgentId: bob, amount: '1', currency: 'CREDIT', idempotencyKey: k });
      const err = await grpcError(t.client.transfer({ agentId: from, toAgentId: bob, amount: '2', currency: 'CREDIT', idempotencyKey: k }));
      expect(err).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'idempotency_key_reused' });
      const other = await grpcError(t.client.createHold({ agentId: from, amount: '1', currency: 'CREDIT', idempotencyKey: k }));
      expect(other.code).toBe('idempotency_key_reused');
      expect(await balancesOf(t.client, from)).toEqual({ CREDIT: { available: '9', held: '0' } });
    });

    it('should scope keys to the wallet owner', async () => {
      const a = agentId('scope-a');
      const b = agentId('scope-b');
      t.identity.put({ agentId: a });
      t.identity.put({ agentId: b });
      await fund(t.client, a, '5');
      await fund(t.client, b, '5');
      const k = key();
      await t.client.transfer({ agentId: a, toAgentId: bob, amount: '1', currency: 'CREDIT', idempotencyKey: k });
      const res = await t.client.transfer({ agentId: b, toAgentId: bob, amount: '1', currency: 'CREDIT', idempotencyKey: k });
      expect(res.idempotentReplayed).toBe(false);
    });

    it('should store insufficient_funds with the key and replay it, even after funds arrive', async () => {
      const poor = agentId('poor');
      t.identity.put({ agentId: poor });
      const req = { agentId: poor, toAgentId: bob, amount: '5', currency: 'CREDIT', idempotencyKey: key() };
      const err = await grpcError(t.client.transfer(req));
      expect(err).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'insufficient_funds',
        details: { currency: 'CREDIT', available: '0', required: '5' },
      });
      expect(err.replayed).toBeUndefined();
      await fund(t.client, poor, '10');
      expect(await grpcError(t.client.transfer(req))).toEqual({ ...err, replayed: true });
      expect(await balancesOf(t.client, poor)).toEqual({ CREDIT: { available: '10', held: '0' } });
      expect((await outboxOf(t.sql, poor)).map((e) => e.type)).toEqual(['exchange.wallet.faucet.granted']);
    });

    it('should apply concurrent duplicates exactly once', async () => {
      const from = agentId('dup');
      t.identity.put({ agentId: from });
      await fund(t.client, from, '10');
      const req = { agentId: from, toAgentId: bob, amount: '4', currency: 'CREDIT', idempotencyKey: key() };
      const results = await Promise.all(Array.from({ length: 8 }, () => t.client.transfer(req)));
      expect(new Set(results.map((r) => r.transfer!.transferId)).size).toBe(1);
      expect(results.filter((r) => !r.idempotentReplayed)).toHaveLength(1);
      expect(await balancesOf(t.client, from)).toEqual({ CREDIT: { available: '6', held: '0' } });
      expect((await outboxOf(t.sql, from)).filter((e) => e.type === 'exchange.wallet.transfer.completed')).toHaveLength(1);
    });

    it.each([
      [{ toAgentId: 'nobody:agent:x' }, status.NOT_FOUND, 'agent_not_found'],
      [{ toAgentId: '' }, status.INVALID_ARGUMENT, 'validation_failed'],
      [{ amount: '-1' }, status.INVALID_ARGUMENT, 'invalid_amount'],
      [{ amount: '1e3' }, status.INVALID_ARGUMENT, 'invalid_amount'],
      [{ currency: 'euro' }, status.INVALID_ARGUMENT, 'unsupported_currency'],
      [{ idempotencyKey: '' }, status.INVALID_ARGUMENT, 'idempotency_key_required'],
      [{ idempotencyKey: 'bad\u0001' }, status.INVALID_ARGUMENT, 'invalid_idempotency_key'],
    ])('should refuse %j with %s %s', async (change, grpcCode, code) => {
      const req = { agentId: alice, toAgentId: bob, amount: '1', currency: 'CREDIT', idempotencyKey: key(), ...change };
      expect(await grpcError(t.client.transfer(req as never))).toMatchObject({ grpcCode, code });
    });

    it('should refuse a transfer to oneself and from a frozen agent', async () => {
      expect(await grpcError(t.client.transfer({ agentId: alice, toAgentId: alice, amount: '1', currency: 'CREDIT', idempotencyKey: key() }))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'self_transfer',
      });
      expect(await grpcError(t.client.transfer({ agentId: frozen, toAgentId: alice, amount: '1', currency: 'CREDIT', idempotencyKey: key() }))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'agent_frozen',
      });
    });

    it('should keep balances per currency', async () => {
      const a = agentId('eur');
      t.identity.put({ agentId: a });
      const dep = await t.client.createDeposit({ agentId: a, amount: '30', currency: 'EUR', method: 2, idempotencyKey: key() });
      await t.client.confirmDeposit({ agentId: a, depositId: dep.deposit!.depositId, idempotencyKey: key() });
      await t.client.transfer({ agentId: a, toAgentId: bob, amount: '10', currency: 'EUR', idempotencyKey: key() });
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '0', held: '0' }, EUR: { available: '20', held: '0' } });
      expect(await grpcError(t.client.transfer({ agentId: a, toAgentId: bob, amount: '1', currency: 'USD', idempotencyKey: key() }))).toMatchObject({
        code: 'insufficient_funds',
      });
    });
  });
});
