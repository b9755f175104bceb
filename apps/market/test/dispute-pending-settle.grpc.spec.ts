import { status } from '@grpc/grpc-js';
import { formatAmount } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import * as executor from '../src/saga/executor';
import type { SettleParams } from '../src/domain/steps';
import { awardedContract, grpcError, startMarketHarness, type MarketHarness } from './market-harness';

// OpenDispute may supersede only a settle step the wallet refused for good. These tests put a
// settle step the market cannot know about yet where OpenDispute meets it: committed by a verdict
// AFTER the dispute's drain (another replica, which may even have crashed right after wallet
// Settle succeeded). The executor is wrapped (pass-through by default) so a test can act between
// the drain and the dispute's transaction, and stop a verdict's own run of its step.
jest.mock('../src/saga/executor', () => {
  const actual = jest.requireActual<typeof import('../src/saga/executor')>('../src/saga/executor');
  return { ...actual, drain: jest.fn(actual.drain), runStep: jest.fn(actual.runStep) };
});

const actual = jest.requireActual<typeof import('../src/saga/executor')>('../src/saga/executor');
const drainMock = executor.drain as jest.MockedFunction<typeof executor.drain>;
const runStepMock = executor.runStep as jest.MockedFunction<typeof executor.runStep>;

const CS = marketV1.ContractStatus;
const ES = marketV1.EscrowStatus;

describe('OpenDispute and a settle step it must not supersede (gRPC, real wallet-ledger)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_dispute_settle' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    drainMock.mockReset().mockImplementation(actual.drain);
    runStepMock.mockReset().mockImplementation(actual.runStep);
  });

  async function delivered() {
    const a = await awardedContract(h); // buyer funded 150, price 100
    const { result } = await h.client.submitResult(
      { contractId: a.contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' },
      h.as(a.seller),
    );
    return { ...a, result: result! };
  }

  const settleSteps = async (contractId: string) =>
    (await h.marketSql.query<{ status: string; attempts: number; last_failure_definite: boolean }>(
      `SELECT status, attempts, last_failure_definite FROM saga_steps WHERE contract_id = $1 AND kind = 'settle'`,
      [contractId],
    )).rows;
  const receipts = async (contractId: string) =>
    (await h.walletSql.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts WHERE contract_id = $1', [contractId])).rows[0].n;

  /**
   * The buyer's passing verdict, committed (contract accepted + settle step) by "another replica"
   * whose own run of the step never commits: with `walletExecuted` it crashed right after wallet
   * Settle succeeded (the escrow is consumed), else before calling the wallet.
   */
  async function verdictWithoutItsRun(d: Awaited<ReturnType<typeof delivered>>, walletExecuted: boolean) {
    runStepMock.mockImplementationOnce(async (_ctx, stepId) => {
      if (walletExecuted) {
        const { rows } = await h.marketSql.query<{ params: SettleParams; wallet_key: string }>('SELECT params, wallet_key FROM saga_steps WHERE step_id = $1', [stepId]);
        const p = rows[0].params;
        await h.wallet.settle({
          agentId: p.buyerId,
          holdId: p.holdId,
          contractId: d.contract.contractId,
          payeeAgentId: p.sellerId,
          amount: formatAmount(BigInt(p.amount)),
          fee: formatAmount(BigInt(p.fee)),
          idempotencyKey: rows[0].wallet_key,
        });
      }
      return { status: 'pending', definite: false, error: { grpcCode: status.UNAVAILABLE, code: 'unavailable', message: 'replica crashed' } };
    });
    const checks = [{ name: 'ok', ok: true }];
    const signature = h.signReport(d.buyer, { verifierId: d.buyer.agentId, resultId: d.result.resultId, verdict: 'pass', score: 1, checks });
    const res = await h.client.submitVerification(
      { contractId: d.contract.contractId, verifierId: '', resultId: d.result.resultId, verdict: marketV1.Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' },
      h.as(d.buyer),
    );
    expect(res.contract!.status).toBe(CS.CONTRACT_STATUS_ACCEPTED);
  }

  const open = (contractId: string, by: { agentId: string }) =>
    h.client.openDispute({ contractId, openedBy: '', reason: 'not what I asked', evidenceRefs: [], idempotencyKey: '' }, h.as(by.agentId));

  it.each([
    ['the other replica crashed after wallet Settle succeeded', true],
    ['the step was never run', false],
  ])('a settle step committed after the drain is executed, not superseded (%s): settled, then disputed from settled, one receipt', async (_label, walletExecuted) => {
    const d = await delivered();
    // The verdict commits between OpenDispute's drain and its transaction.
    drainMock.mockImplementationOnce(async (ctx, contractId) => {
      const drained = await actual.drain(ctx, contractId);
      await verdictWithoutItsRun(d, walletExecuted);
      return drained;
    });
    drainMock.mockClear(); // count OpenDispute's drains only
    const opened = await open(d.contract.contractId, d.buyer);
    expect(drainMock).toHaveBeenCalledTimes(2); // the transaction found the fresh step, drained again
    expect(opened.contract).toMatchObject({ status: CS.CONTRACT_STATUS_DISPUTED, disputedFrom: CS.CONTRACT_STATUS_SETTLED, escrowStatus: ES.ESCROW_STATUS_SETTLED });
    expect(opened.contract!.receiptId).toMatch(/^rcpt_/);
    expect(await settleSteps(d.contract.contractId)).toEqual([{ status: 'done', attempts: 1, last_failure_definite: false }]);
    expect(await receipts(d.contract.contractId)).toBe(1);
    expect(await h.balances(d.buyer.agentId)).toEqual({ available: '50', held: '0' });
    expect(await h.balances(d.seller.agentId)).toEqual({ available: '99', held: '0' });
    expect((await h.outbox(d.contract.contractId)).map((e) => e.type).slice(-2)).toEqual(['exchange.market.contract.settled', 'exchange.market.contract.disputed']);
    expect(await h.market.workers.recover()).toBe(0);
  });

  it('gives up after 3 rounds with 503 wallet_unavailable while a step it may not supersede stays pending, then opens once it ran', async () => {
    const d = await delivered();
    await verdictWithoutItsRun(d, false);
    // Drains that never get the step done (as if another request kept it busy).
    drainMock.mockClear().mockImplementation(async () => ({ reachable: true, done: 0 }));
    expect(await grpcError(open(d.contract.contractId, d.buyer))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'wallet_unavailable' });
    expect(drainMock).toHaveBeenCalledTimes(3);
    expect(await settleSteps(d.contract.contractId)).toEqual([{ status: 'pending', attempts: 0, last_failure_definite: false }]);
    // An indefinite last failure (the wallet may have executed it) is not supersedable either.
    await h.marketSql.query(`UPDATE saga_steps SET attempts = 1, last_error = 'unavailable: no answer' WHERE contract_id = $1 AND kind = 'settle'`, [d.contract.contractId]);
    expect(await grpcError(open(d.contract.contractId, d.buyer))).toMatchObject({ code: 'wallet_unavailable' });
    expect((await h.client.getContract({ contractId: d.contract.contractId })).contract).toMatchObject({ status: CS.CONTRACT_STATUS_ACCEPTED, escrowStatus: ES.ESCROW_STATUS_HELD });
    expect((await h.client.listDisputes({ contractId: d.contract.contractId, page: undefined })).disputes).toEqual([]);

    drainMock.mockImplementation(actual.drain);
    const opened = await open(d.contract.contractId, d.buyer);
    expect(opened.contract).toMatchObject({ disputedFrom: CS.CONTRACT_STATUS_SETTLED, escrowStatus: ES.ESCROW_STATUS_SETTLED });
    expect(await receipts(d.contract.contractId)).toBe(1);
  });

  it('records a definite refusal (kill switch) on the step, and supersedes only such a step', async () => {
    const d = await delivered();
    await h.wallet.setControls({ controls: { readOnly: false, killSwitches: ['settlements'] }, reason: 'test' });
    try {
      const checks = [{ name: 'ok', ok: true }];
      const signature = h.signReport(d.buyer, { verifierId: d.buyer.agentId, resultId: d.result.resultId, verdict: 'pass', score: 1, checks });
      await h.client.submitVerification(
        { contractId: d.contract.contractId, verifierId: '', resultId: d.result.resultId, verdict: marketV1.Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' },
        h.as(d.buyer),
      );
      expect(await settleSteps(d.contract.contractId)).toEqual([{ status: 'pending', attempts: 1, last_failure_definite: true }]);
      const opened = await open(d.contract.contractId, d.buyer);
      expect(opened.contract).toMatchObject({ disputedFrom: CS.CONTRACT_STATUS_ACCEPTED, escrowStatus: ES.ESCROW_STATUS_HELD });
      // OpenDispute's drain ran it once more (refused again), then superseded it.
      expect(await settleSteps(d.contract.contractId)).toEqual([{ status: 'superseded', attempts: 2, last_failure_definite: true }]);
    } finally {
      await h.wallet.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'test done' });
    }
    expect(await receipts(d.contract.contractId)).toBe(0);
    expect(await h.balances(d.buyer.agentId)).toEqual({ available: '50', held: '100' });
  });
});
