import { errors } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { expectProblem, operator, registerAgent, TestAgent, uniqueAgentId } from './harness';
import { alice, bob, freshKey, h, ISO, signed, useWalletsHarness, wallet } from './wallets-setup';

// Payout destinations, withdrawals, receipts and the ledger check through app.inject(), as
// wallets.spec.ts.

useWalletsHarness();

describe('payout destinations', () => {
  it('POST /v1/wallets/{agent_id}/payout_destinations should create without an idempotency key', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/payout_destinations'), { type: 'crypto_address', details: { address: 'abc' }, label: 'cold' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      payout_destination_id: expect.stringMatching(/^pod_/),
      agent_id: alice.agentId,
      type: 'crypto_address',
      details: { address: 'abc' },
      label: 'cold',
      created_at: expect.stringMatching(ISO),
    });
    expect(h.wallet.lastCall('createPayoutDestination').request).toEqual({
      agentId: alice.agentId,
      type: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_CRYPTO_ADDRESS,
      details: { address: 'abc' },
      label: 'cold',
      idempotencyKey: '',
    });
  });

  it('should map signing_key_reuse to 400 and refuse non-string details', async () => {
    h.wallet.failNext('createPayoutDestination', errors.invalidArgument('signing_key_reuse', 'a payout address may not be one of your signing keys'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/payout_destinations'), headers: operator(), payload: { type: 'crypto_address', details: { address: alice.publicKey }, label: 'x' } }),
      400,
      'signing_key_reuse',
    );
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/payout_destinations'), headers: operator(), payload: { type: 'sandbox', details: { n: 1 }, label: 'x' } }),
      400,
      'validation_failed',
    );
  });

  it('GET /v1/wallets/{agent_id}/payout_destinations should answer a page', async () => {
    const res = await signed(alice, 'GET', wallet(alice, '/payout_destinations'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [expect.objectContaining({ type: 'bank_account', details: { iban: 'DE00' } })], next_cursor: null });
  });
});

describe('withdrawals', () => {
  it('POST /v1/wallets/{agent_id}/withdrawals should create a requested withdrawal', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/withdrawals'), { amount: '25', currency: 'CREDIT', payout_destination_id: 'pod_9', idempotency_key: freshKey() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ withdrawal_id: expect.stringMatching(/^wdr_/), status: 'requested', payout_destination_id: 'pod_9', failure_reason: null });
  });

  it('should map identity_level_insufficient and withdrawal_limit_exceeded to 403 with their details', async () => {
    h.wallet.failNext(
      'createWithdrawal',
      errors.permissionDenied('identity_level_insufficient', 'withdrawals need MAINNET_ATTESTED', { required: 'MAINNET_ATTESTED', current: 'SANDBOX_UNVERIFIED' }),
    );
    const level = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/withdrawals'), headers: operator(), payload: { amount: '1', currency: 'CREDIT', payout_destination_id: 'pod_9', idempotency_key: freshKey() } }),
      403,
      'identity_level_insufficient',
    );
    expect(level).toMatchObject({ required: 'MAINNET_ATTESTED', current: 'SANDBOX_UNVERIFIED' });
    h.wallet.failNext(
      'createWithdrawal',
      errors.resourceExhausted('withdrawal_limit_exceeded', 'daily withdrawal limit reached', { limit: '1000', used_today: '990', resets_at: '2026-11-22T00:00:00.000Z' }),
    );
    const limit = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/withdrawals'), headers: operator(), payload: { amount: '20', currency: 'CREDIT', payout_destination_id: 'pod_9', idempotency_key: freshKey() } }),
      403,
      'withdrawal_limit_exceeded',
    );
    expect(limit).toMatchObject({ limit: '1000', used_today: '990', resets_at: '2026-11-22T00:00:00.000Z' });
  });

  it('GET /v1/wallets/{agent_id}/withdrawals/{withdrawal_id} should answer the status with failure_reason', async () => {
    const res = await signed(alice, 'GET', wallet(alice, '/withdrawals/wdr_7'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ withdrawal_id: 'wdr_7', status: 'failed', failure_reason: 'simulated payout failure' });
    h.wallet.failNext('getWithdrawal', errors.notFound('withdrawal', 'wdr_none'));
    expectProblem(await signed(alice, 'GET', wallet(alice, '/withdrawals/wdr_none')), 404, 'withdrawal_not_found');
  });

  it('POST /v1/wallets/{agent_id}/withdrawals/{withdrawal_id}/cancel should cancel', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/withdrawals/wdr_8/cancel'), { idempotency_key: freshKey() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ withdrawal_id: 'wdr_8', status: 'cancelled' });
  });
});

describe('GET /v1/receipts/{receipt_id}', () => {
  const receipt: walletV1.Receipt = {
    receiptId: 'rcpt_gw1',
    kind: walletV1.ReceiptKind.RECEIPT_KIND_SETTLEMENT,
    contractId: 'ctr_1',
    holdId: 'hld_1',
    payer: '',
    payee: '',
    amount: '25',
    fee: '0.5',
    refundedAmount: '5',
    currency: 'CREDIT',
    journalEntryIds: ['jrn_a', 'jrn_b'],
    settledAt: new Date('2026-11-21T18:00:00.123Z'),
    signature: 'c2ln',
    signerPublicKey: 'cHVi',
  };

  beforeAll(() => {
    h.wallet.receipts.set('rcpt_gw1', { ...receipt, payer: alice.agentId, payee: bob.agentId });
  });

  it('should answer the receipt to an operator, the payer and the payee, exactly in its signed JSON form', async () => {
    const expected = {
      receipt_id: 'rcpt_gw1',
      kind: 'settlement',
      contract_id: 'ctr_1',
      hold_id: 'hld_1',
      payer: alice.agentId,
      payee: bob.agentId,
      amount: '25',
      fee: '0.5',
      refunded_amount: '5',
      currency: 'CREDIT',
      journal_entry_ids: ['jrn_a', 'jrn_b'],
      settled_at: '2026-11-21T18:00:00.123Z',
      signer_public_key: 'cHVi',
      signature: 'c2ln',
    };
    const byOperator = await h.app.inject({ method: 'GET', url: '/v1/receipts/rcpt_gw1', headers: operator() });
    expect(byOperator.statusCode).toBe(200);
    expect(byOperator.json()).toEqual(expected);
    expect((await signed(alice, 'GET', '/v1/receipts/rcpt_gw1')).json()).toEqual(expected);
    expect((await signed(bob, 'GET', '/v1/receipts/rcpt_gw1')).statusCode).toBe(200);
  });

  it('should refuse any other agent with 403 forbidden and answer 404 for an unknown receipt', async () => {
    const mallory = new TestAgent(uniqueAgentId('mallory'));
    await registerAgent(h.app, mallory);
    expectProblem(await signed(mallory, 'GET', '/v1/receipts/rcpt_gw1'), 403, 'forbidden');
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/receipts/rcpt_none', headers: operator() }), 404, 'receipt_not_found');
  });
});

describe('GET /v1/ledger/check', () => {
  it('should answer the reconciliation report to an operator, with counts as numbers', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/ledger/check', headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      accounts_checked: 4,
      entries_checked: 3,
      postings_checked: 6,
      global_sums: { CREDIT: '0' },
      discrepancies: [],
      checked_at: expect.stringMatching(ISO),
    });
  });

  it('should be operator-only', async () => {
    expectProblem(await signed(alice, 'GET', '/v1/ledger/check'), 403, 'operator_token_required');
  });
});
