import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { ExchangeClient, verifyReceipt, type Receipt } from '@exchange/sdk';
import { expectProblem } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';
import { bootStack, exchangePublicKey, type Stack } from './stack';
import { newKey, WalletHttp, walletPath } from './wallet-http';

// Settlement receipts end to end. Settle and Refund are gRPC-only (the market will call them),
// so the test calls wallet-ledger directly at the address the stack exposes, then reads the
// receipt through the gateway and verifies it offline with the key /health publishes.

let stack: Stack;
let w: WalletHttp;
let ledger: PromiseClient<typeof walletV1.WalletLedgerServiceService>;
let exchangeKey: string;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  w = new WalletHttp(stack.baseUrl, stack.operatorToken);
  ledger = createServiceClient(walletV1.WalletLedgerServiceService, stack.grpcUrls['wallet-ledger'] ?? '');
  exchangeKey = await exchangePublicKey(stack);
});

afterAll(async () => {
  ledger?.close();
  await stack?.stop();
});

async function newAgent(name: string): Promise<RawAgent> {
  const agent = new RawAgent(uniqueAgentId(name));
  await w.register(agent);
  return agent;
}

/** A buyer with `funds` CREDIT and an active escrow hold of `held`, made as the market makes it (controller market). */
async function buyerWithHold(funds: string, held: string) {
  const buyer = await newAgent('rcpt-buyer');
  await w.expectStatus(w.as(buyer, 'POST', walletPath(buyer, '/faucet'), { amount: funds, category: 'receipts', idempotency_key: newKey() }), 201);
  const { hold } = await ledger.createHold({ agentId: buyer.agentId, amount: held, currency: 'CREDIT', idempotencyKey: newKey('escrow'), controller: 'market' });
  return { buyer, holdId: hold!.holdId };
}

describe('GET /v1/receipts/{receipt_id}', () => {
  it('serves a settlement receipt to the operator, the payer and the payee, verifiable offline with the /health key', async () => {
    const { buyer, holdId } = await buyerWithHold('100', '50');
    const seller = await newAgent('rcpt-seller');
    const contractId = `ctr_e2e_${newKey()}`;
    const settled = await ledger.settle({
      agentId: buyer.agentId,
      holdId,
      contractId,
      payeeAgentId: seller.agentId,
      amount: '40',
      fee: '2',
      idempotencyKey: newKey('settle'),
    });
    const receiptId = settled.receipt!.receiptId;

    const byOperator = await w.expectStatus(w.op('GET', `/v1/receipts/${receiptId}`), 200);
    expect(byOperator).toEqual({
      receipt_id: receiptId,
      kind: 'settlement',
      contract_id: contractId,
      hold_id: holdId,
      payer: buyer.agentId,
      payee: seller.agentId,
      amount: '40',
      fee: '2',
      refunded_amount: '10',
      currency: 'CREDIT',
      journal_entry_ids: expect.arrayContaining([expect.stringMatching(/^jrn_/)]),
      settled_at: expect.stringMatching(/Z$/),
      signer_public_key: exchangeKey,
      signature: expect.any(String),
    });
    expect(await w.expectStatus(w.as(buyer, 'GET', `/v1/receipts/${receiptId}`), 200)).toEqual(byOperator);
    const sellerSdk = new ExchangeClient({ baseUrl: stack.baseUrl, agent: { agentId: seller.agentId, privateKey: seller.seed } });
    const receipt: Receipt = await sellerSdk.receipts.get(receiptId);
    expect(receipt).toEqual(byOperator);

    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    expect(verifyReceipt({ ...receipt, amount: '400' }, exchangeKey)).toBe(false);
    expect(verifyReceipt({ ...receipt, payee: buyer.agentId }, exchangeKey)).toBe(false);

    // The money moved as the receipt says: payee amount − fee, payer the rest of the hold back.
    expect(await w.balance(seller)).toEqual({ available: '38', held: '0' });
    expect(await w.balance(buyer)).toEqual({ available: '60', held: '0' });
  });

  it('serves a refund receipt: the whole hold back to the payer, no fee', async () => {
    const { buyer, holdId } = await buyerWithHold('30', '30');
    const contractId = `ctr_e2e_${newKey()}`;
    const refunded = await ledger.refund({ agentId: buyer.agentId, holdId, contractId, idempotencyKey: newKey('refund') });
    const receipt = await w.expectStatus(w.as(buyer, 'GET', `/v1/receipts/${refunded.receipt!.receiptId}`), 200);
    expect(receipt).toMatchObject({ kind: 'refund', payer: buyer.agentId, payee: buyer.agentId, amount: '30', fee: '0', refunded_amount: '30', contract_id: contractId });
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    expect(await w.balance(buyer)).toEqual({ available: '30', held: '0' });
  });

  it('refuses an agent that is neither payer nor payee (403 forbidden) and answers 404 for an unknown receipt', async () => {
    const { buyer, holdId } = await buyerWithHold('10', '10');
    const refunded = await ledger.refund({ agentId: buyer.agentId, holdId, contractId: `ctr_e2e_${newKey()}`, idempotencyKey: newKey('refund') });
    const stranger = await newAgent('rcpt-stranger');
    expectProblem(await w.as(stranger, 'GET', `/v1/receipts/${refunded.receipt!.receiptId}`), 403, 'forbidden');
    expectProblem(await w.op('GET', '/v1/receipts/rcpt_00000000-0000-7000-8000-000000000000'), 404, 'receipt_not_found');
  });
});
