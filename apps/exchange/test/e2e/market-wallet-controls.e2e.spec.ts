import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { MarketHttp, expectProblem } from './market-http';
import { bootStack, type Stack } from './stack';
import { eventually } from './wallet-http';

// The market when wallet-ledger refuses money steps for good (its controls, switched over gRPC as
// an operator tool would): the `settlements` kill switch pauses settlement after a pass (the
// response still succeeds, the recovery worker settles once it is off), a dispute opened
// meanwhile supersedes the paused step (it never settles later), read-only refuses an award
// whole (503 read_only, nothing changes).

let stack: Stack;
let m: MarketHttp;
let ledger: PromiseClient<typeof walletV1.WalletLedgerServiceService>;

beforeAll(async () => {
  stack = await bootStack();
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
  ledger = createServiceClient(walletV1.WalletLedgerServiceService, stack.grpcUrls['wallet-ledger'] ?? '');
});

afterAll(async () => {
  if (ledger) await setControls({});
  if (m) await m.expectLedgerOk();
  ledger?.close();
  await stack?.stop();
});

async function setControls(c: { readOnly?: boolean; killSwitches?: string[] }) {
  await ledger.setControls({ controls: { readOnly: c.readOnly ?? false, killSwitches: c.killSwitches ?? [] }, reason: 'e2e market' });
}

describe('wallet controls under the market', () => {
  it('settlements switched off: a pass is stored, the contract waits at accepted, and settles once the switch is off', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '100', price: '100' });
    await setControls({ killSwitches: ['settlements'] });
    try {
      const report = await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'pass'), 201);
      expect(report.verdict).toBe('pass');
      expect(await m.contract(contractId)).toMatchObject({ status: 'accepted', escrow_status: 'held', receipt_id: null });
      // The recovery worker (every 2 s) keeps trying while the switch is on: still nothing moves.
      await new Promise((r) => setTimeout(r, 3000));
      expect(await m.contract(contractId)).toMatchObject({ status: 'accepted', escrow_status: 'held' });
      await m.expectBalance(buyer, { available: '0', held: '100' });
    } finally {
      await setControls({});
    }
    const settled = await eventually(() => m.contract(contractId), (c) => c.status === 'settled', 60, 250);
    expect(settled).toMatchObject({ escrow_status: 'settled', receipt_id: expect.stringMatching(/^rcpt_/) });
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '99', held: '0' });
  });

  it('a dispute opened while settlement is paused supersedes it: after the switch is off nothing settles; the decision moves the money', async () => {
    const { buyer, seller, contractId, result } = await m.delivered({ funds: '100', price: '100' });
    await setControls({ killSwitches: ['settlements'] });
    let disputeId: string;
    try {
      await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'pass'), 201);
      const dispute = await m.expectStatus(m.openDispute(seller, contractId, { reason: 'paid late' }), 201);
      disputeId = dispute.dispute_id;
      expect(await m.contract(contractId)).toMatchObject({ status: 'disputed', disputed_from: 'accepted', escrow_status: 'held' });
      // A resolution that needs the wallet is refused while the switch is on; the dispute stays open.
      const refused = await m.resolve(disputeId, { outcome: 'seller' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('kill_switch:settlements');
      expect((await m.expectStatus(m.op('GET', `/v1/disputes/${disputeId}`), 200)).status).toBe('open');
    } finally {
      await setControls({});
    }
    await new Promise((r) => setTimeout(r, 3000));
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed', escrow_status: 'held', receipt_id: null });
    await m.expectBalance(buyer, { available: '0', held: '100' });
    await m.expectStatus(m.resolve(disputeId, { outcome: 'split', seller_share_bps: 5000 }), 200);
    expect(await m.contract(contractId)).toMatchObject({ status: 'split', escrow_status: 'settled' });
    await m.expectBalance(buyer, { available: '50', held: '0' });
    await m.expectBalance(seller, { available: '49.5', held: '0' });
  });

  it('read-only wallet: an award is refused whole (503 read_only, contract open, offer submitted); after it the award goes through', async () => {
    const buyer = await m.newAgent('ro-buyer');
    const seller = await m.newAgent('ro-seller');
    await m.fund(buyer, '30');
    const c = await m.openContract(buyer, { budget: { amount: '30', currency: 'CREDIT' } });
    const offer = await m.submitOffer(seller, c.contract_id, '30');
    await setControls({ readOnly: true });
    try {
      expectProblem(await m.award(c.contract_id, offer.offer_id), 503, 'read_only');
      expect(await m.contract(c.contract_id)).toEqual(c);
      expect((await m.expectStatus(m.op('GET', `/v1/offers/${offer.offer_id}`), 200)).status).toBe('submitted');
    } finally {
      await setControls({});
    }
    await m.expectBalance(buyer, { available: '30', held: '0' });
    await m.expectStatus(m.award(c.contract_id, offer.offer_id), 200);
    await m.expectBalance(buyer, { available: '0', held: '30' });
  });
});
