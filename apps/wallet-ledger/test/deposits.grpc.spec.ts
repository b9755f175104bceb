import { status } from '@grpc/grpc-js';
import { walletV1 } from '@exchange/proto';
import { agentId, balancesOf, grpcError, key, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

const { DepositMethod, DepositStatus } = walletV1;

describe('wallet-ledger gRPC: deposits', () => {
  let t: TestWallet;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_deposits' });
  });
  afterAll(async () => {
    await t?.close();
  });

  function newAgent(): string {
    const a = agentId('depositor');
    t.identity.put({ agentId: a });
    return a;
  }

  const create = (agent: string, amount = '25', method = DepositMethod.DEPOSIT_METHOD_BANK) =>
    t.client.createDeposit({ agentId: agent, amount, currency: 'USD', method, reference: 'wire 42', idempotencyKey: key() });

  it('should create a pending deposit without moving money', async () => {
    const a = newAgent();
    const res = await create(a);
    expect(res.deposit).toEqual({
      depositId: expect.stringMatching(/^dep_/),
      agentId: a,
      amount: '25',
      currency: 'USD',
      method: DepositMethod.DEPOSIT_METHOD_BANK,
      reference: 'wire 42',
      status: DepositStatus.DEPOSIT_STATUS_PENDING,
      journalEntryId: undefined,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '0', held: '0' } });
    expect((await outboxOf(t.sql, a)).map((e) => e.type)).toEqual(['exchange.wallet.deposit.created']);
  });

  it('should credit the wallet on confirm, once', async () => {
    const a = newAgent();
    const { deposit } = await create(a);
    const res = await t.client.confirmDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() });
    expect(res.deposit).toMatchObject({ status: DepositStatus.DEPOSIT_STATUS_CONFIRMED, journalEntryId: expect.stringMatching(/^jrn_/) });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '0', held: '0' }, USD: { available: '25', held: '0' } });
    // One call at a time: a rejection created before it is awaited would be reported as unhandled.
    for (const call of [
      () => t.client.confirmDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() }),
      () => t.client.expireDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() }),
    ]) {
      expect(await grpcError(call())).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state', details: expect.objectContaining({ current: 'confirmed' }) });
    }
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '0', held: '0' }, USD: { available: '25', held: '0' } });
    expect((await outboxOf(t.sql, a)).map((e) => e.type)).toEqual(['exchange.wallet.deposit.created', 'exchange.wallet.deposit.confirmed']);
  });

  it('should expire a pending deposit without crediting, after which confirm is refused', async () => {
    const a = newAgent();
    const { deposit } = await create(a);
    const res = await t.client.expireDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() });
    expect(res.deposit!.status).toBe(DepositStatus.DEPOSIT_STATUS_EXPIRED);
    expect(await grpcError(t.client.confirmDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() }))).toMatchObject({
      code: 'invalid_state',
      details: { current: 'expired', wanted: 'confirmed' },
    });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '0', held: '0' } });
  });

  it('should refuse an unspecified method, an unknown deposit and another agent\'s deposit', async () => {
    const a = newAgent();
    expect(await grpcError(create(a, '1', DepositMethod.DEPOSIT_METHOD_UNSPECIFIED))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed' });
    const { deposit } = await create(a);
    const other = newAgent();
    expect(await grpcError(t.client.confirmDeposit({ agentId: other, depositId: deposit!.depositId, idempotencyKey: key() }))).toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: 'deposit_not_found',
    });
    expect(await grpcError(t.client.expireDeposit({ agentId: a, depositId: 'dep_x', idempotencyKey: key() }))).toMatchObject({ code: 'deposit_not_found' });
  });

  it('should list deposits newest first with cursors and a status filter', async () => {
    const a = newAgent();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(a, String(i + 1))).deposit!.depositId);
    await t.client.confirmDeposit({ agentId: a, depositId: ids[1], idempotencyKey: key() });
    const pages: string[][] = [];
    let cursor = '';
    do {
      const res = await t.client.listDeposits({ agentId: a, page: { limit: 2, cursor }, status: DepositStatus.DEPOSIT_STATUS_UNSPECIFIED });
      pages.push(res.deposits.map((d) => d.depositId));
      cursor = res.page!.nextCursor;
    } while (cursor !== '' && pages.length < 10);
    expect(pages).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    const confirmed = await t.client.listDeposits({ agentId: a, page: undefined, status: DepositStatus.DEPOSIT_STATUS_CONFIRMED });
    expect(confirmed.deposits.map((d) => d.depositId)).toEqual([ids[1]]);
    expect(await grpcError(t.client.listDeposits({ agentId: a, page: { limit: 201, cursor: '' }, status: 0 }))).toMatchObject({ code: 'invalid_limit' });
  });

  it('should answer agent_not_found (404) to every wallet read of an agent identity does not know, not an empty list', async () => {
    const nobody = 'nobody:agent:reads';
    const notFound = { grpcCode: status.NOT_FOUND, code: 'agent_not_found' };
    expect(await grpcError(t.client.listDeposits({ agentId: nobody, page: undefined, status: 0 }))).toMatchObject(notFound);
    expect(await grpcError(t.client.listPayoutDestinations({ agentId: nobody, page: undefined }))).toMatchObject(notFound);
    expect(await grpcError(t.client.getWithdrawal({ agentId: nobody, withdrawalId: 'wdr_x' }))).toMatchObject(notFound);
    expect(await grpcError(t.client.getHold({ agentId: nobody, holdId: 'hld_x' }))).toMatchObject(notFound);
    // A known agent with nothing yet still gets its empty pages.
    const a = newAgent();
    expect((await t.client.listDeposits({ agentId: a, page: undefined, status: 0 })).deposits).toEqual([]);
    expect((await t.client.listPayoutDestinations({ agentId: a, page: undefined })).payoutDestinations).toEqual([]);
  });

  it('should refuse deposit changes of a frozen agent', async () => {
    const a = newAgent();
    const { deposit } = await create(a);
    t.identity.freeze(a);
    expect(await grpcError(t.client.confirmDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() }))).toMatchObject({
      grpcCode: status.PERMISSION_DENIED,
      code: 'agent_frozen',
    });
    expect((await t.client.listDeposits({ agentId: a, page: undefined, status: 0 })).deposits).toHaveLength(1);
  });
});
