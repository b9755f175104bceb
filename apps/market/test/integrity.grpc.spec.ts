import { status } from '@grpc/grpc-js';
import { integrityTestKit, type IntegrityClient } from './integrity-kit';
import { marketV1, marketV1Integrity, walletV1 } from '@exchange/proto';
import { awardedContract, grpcError, type MarketHarness } from './market-harness';

const CS = marketV1.ContractStatus;
const IS = marketV1Integrity.IntegrityState;

describe('market integrity (state, kill switches, enforcement, wallet controls)', () => {
  const kit = integrityTestKit('market_integrity');
  const { setState, setSwitch, delivered, verify } = kit;
  let h: MarketHarness;
  let integrity: IntegrityClient;
  beforeAll(() => void ({ h, integrity } = kit));

  async function settled() {
    const d = await delivered();
    const res = await verify(d.buyer, d.contract.contractId, d.result.resultId);
    expect(res.contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    return { ...d, contract: res.contract! };
  }

  const walletControls = async () => (await h.wallet.getControls({})).controls!;

  describe('GetIntegrityState / SetIntegrityState', () => {
    it('should start normal with all six switches off, in order, and in sync', async () => {
      const { integrity: s } = await integrity.getIntegrityState({}, h.as(h.newAgent()));
      expect(s).toMatchObject({ state: IS.INTEGRITY_STATE_NORMAL, walletControlsSynced: true });
      expect(s!.killSwitches.map((k) => [k.name, k.enabled])).toEqual([
        ['new_contracts', false],
        ['awards', false],
        ['settlements', false],
        ['withdrawals', false],
        ['faucet', false],
        ['read_only', false],
      ]);
    });

    it('should halt from normal in one call, audited, and push halted to the wallet', async () => {
      const halted = await setState(IS.INTEGRITY_STATE_HALTED, 'emergency');
      expect(halted.integrity).toMatchObject({ state: IS.INTEGRITY_STATE_HALTED, reason: 'emergency', setBy: 'operator:ops' });
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: ['settlements'] });
      const audit = await integrity.listIntegrityAudit({ action: 'state_changed', page: { limit: 1, cursor: '' } }, h.operator());
      expect(audit.entries.map((e) => [e.subject, e.reason])).toEqual([['halted', 'emergency']]);
      expect(JSON.parse(audit.entries[0].detailsJson)).toEqual({ before: 'normal', after: 'halted' });
      await setState(IS.INTEGRITY_STATE_NORMAL, 'over');
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: [] });
    });

    it('should go up step by step too, down any number, refuse the same state, audit every change', async () => {
      const same = await grpcError(setState(IS.INTEGRITY_STATE_NORMAL));
      expect(same).toMatchObject({ code: 'invalid_state', details: { current: 'normal', wanted: 'normal' } });

      const up = await setState(IS.INTEGRITY_STATE_ELEVATED, 'odd volume');
      expect(up.integrity).toMatchObject({ state: IS.INTEGRITY_STATE_ELEVATED, reason: 'odd volume', setBy: 'operator:ops', walletControlsSynced: true });
      await setState(IS.INTEGRITY_STATE_RESTRICTED);
      const halted = await setState(IS.INTEGRITY_STATE_HALTED, 'incident');
      expect(halted.integrity!.state).toBe(IS.INTEGRITY_STATE_HALTED);
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: ['settlements'] });

      const down = await setState(IS.INTEGRITY_STATE_NORMAL, 'resolved');
      expect(down.integrity).toMatchObject({ state: IS.INTEGRITY_STATE_NORMAL, reason: 'resolved', walletControlsSynced: true });
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: [] });

      const audit = await integrity.listIntegrityAudit({ action: 'state_changed', page: { limit: 4, cursor: '' } }, h.operator());
      expect(audit.entries.map((e) => [e.subject, e.reason, e.operator])).toEqual([
        ['normal', 'resolved', 'operator:ops'],
        ['halted', 'incident', 'operator:ops'],
        ['restricted', 'test', 'operator:ops'],
        ['elevated', 'odd volume', 'operator:ops'],
      ]);
      expect(JSON.parse(audit.entries[0].detailsJson)).toEqual({ before: 'halted', after: 'normal' });
      const events = (await h.outbox()).filter((e) => e.type.startsWith('exchange.market.integrity.'));
      expect(events.map((e) => e.type).slice(-4)).toEqual(Array(4).fill('exchange.market.integrity.state_changed'));
      expect(events.at(-1)!.data).toMatchObject({ audit: { action: 'state_changed', subject: 'normal' }, integrity: { state: 'INTEGRITY_STATE_NORMAL' } });
    });

    it('should refuse agents, a missing reason and an unknown state or switch', async () => {
      const agent = h.newAgent();
      const denied = await grpcError(integrity.setIntegrityState({ state: IS.INTEGRITY_STATE_ELEVATED, reason: 'r', idempotencyKey: '' }, h.as(agent)));
      expect(denied).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'operator_required' });
      expect(await grpcError(integrity.listIntegrityAudit({ page: undefined }, h.as(agent)))).toMatchObject({ code: 'operator_required' });
      expect(await grpcError(setState(IS.INTEGRITY_STATE_ELEVATED, ''))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed' });
      expect(await grpcError(setState(IS.INTEGRITY_STATE_ELEVATED, 'x'.repeat(501)))).toMatchObject({ code: 'validation_failed' });
      expect(await grpcError(setState(IS.INTEGRITY_STATE_UNSPECIFIED))).toMatchObject({ code: 'validation_failed', details: { field: 'state' } });
      expect(await grpcError(setSwitch('everything', true))).toMatchObject({ code: 'validation_failed', details: { field: 'name' } });
      expect((await integrity.getIntegrityState({})).integrity!.state).toBe(IS.INTEGRITY_STATE_NORMAL);
    });

    it('should replay a change by idempotency key', async () => {
      const req = { state: IS.INTEGRITY_STATE_ELEVATED, reason: 'once', idempotencyKey: 'integrity-key-1' };
      const first = await integrity.setIntegrityState(req, h.operator());
      const again = await integrity.setIntegrityState(req, h.operator());
      expect(again).toEqual({ ...first, idempotentReplayed: true });
      const audit = await integrity.listIntegrityAudit({ action: 'state_changed', page: { limit: 1, cursor: '' } }, h.operator());
      expect(audit.entries[0].reason).toBe('once');
      expect(audit.page!.nextCursor).not.toBe('');
    });
  });

  describe('wallet controls propagation', () => {
    it('should answer the change with wallet_controls_synced=false while wallet-ledger is down, and the worker catches up', async () => {
      await h.stopWallet();
      try {
        const res = await setSwitch('withdrawals', true, 'wallet down');
        expect(res.integrity).toMatchObject({ walletControlsSynced: false });
        expect(res.integrity!.killSwitches.find((k) => k.name === 'withdrawals')).toMatchObject({ enabled: true, reason: 'wallet down', setBy: 'operator:ops' });
        expect(await h.market.workers.syncWalletControls()).toBe(false);
      } finally {
        await h.startWallet();
      }
      expect((await integrity.getIntegrityState({})).integrity!.walletControlsSynced).toBe(false);
      expect(await h.market.workers.syncWalletControls()).toBe(true);
      expect((await integrity.getIntegrityState({})).integrity!.walletControlsSynced).toBe(true);
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: ['withdrawals'] });
    });
  });

  describe('CorrectErroneousClear', () => {
    it('should reverse the settlement exactly, mark the contract corrected, audit it, and refuse a second time', async () => {
      const feesBefore = await h.feesBalance();
      const s = await settled();
      expect(await h.balances(s.buyer.agentId)).toEqual({ available: '50', held: '0' });
      expect(await h.balances(s.seller.agentId)).toEqual({ available: '99', held: '0' });
      const res = await integrity.correctErroneousClear({ contractId: s.contract.contractId, reason: 'cleared in error', idempotencyKey: '' }, h.operator());
      expect(res.contract).toMatchObject({
        status: CS.CONTRACT_STATUS_CORRECTED,
        correctionReason: 'cleared in error',
        correctionReceiptId: res.receipt!.receiptId,
        receiptId: s.contract.receiptId,
      });
      expect(res.contract!.correctedAt).toBeInstanceOf(Date);
      expect(res.receipt).toMatchObject({
        kind: walletV1.ReceiptKind.RECEIPT_KIND_CORRECTION,
        correctsReceiptId: s.contract.receiptId,
        reason: 'cleared in error',
        amount: '100',
        fee: '1',
      });
      expect(await h.balances(s.buyer.agentId)).toEqual({ available: '150', held: '0' });
      expect(await h.balances(s.seller.agentId)).toEqual({ available: '0', held: '0' });
      expect(await h.feesBalance()).toBe(feesBefore);
      expect((await h.wallet.checkLedger({})).ok).toBe(true);

      const types = (await h.outbox(s.contract.contractId)).map((e) => e.type);
      expect(types.filter((t) => t === 'exchange.market.contract.corrected')).toHaveLength(1);
      expect(types.filter((t) => t === 'exchange.market.integrity.erroneous_clear')).toHaveLength(1);
      const audit = await integrity.listIntegrityAudit({ action: 'erroneous_clear', page: { limit: 1, cursor: '' } }, h.operator());
      expect(audit.entries[0]).toMatchObject({ subject: s.contract.contractId, reason: 'cleared in error', operator: 'operator:ops' });

      const twice = await grpcError(integrity.correctErroneousClear({ contractId: s.contract.contractId, reason: 'again', idempotencyKey: '' }, h.operator()));
      expect(twice).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state', details: { current: 'corrected', wanted: 'corrected' } });
    });

    it('should refuse a contract not settled, an agent and an unknown contract', async () => {
      const a = await awardedContract(h);
      const notSettled = await grpcError(integrity.correctErroneousClear({ contractId: a.contract.contractId, reason: 'r', idempotencyKey: '' }, h.operator()));
      expect(notSettled).toMatchObject({ code: 'invalid_state', details: { current: 'awarded', wanted: 'corrected' } });
      const agent = await grpcError(integrity.correctErroneousClear({ contractId: a.contract.contractId, reason: 'r', idempotencyKey: '' }, h.as(a.buyer)));
      expect(agent).toMatchObject({ code: 'operator_required' });
      const missing = await grpcError(integrity.correctErroneousClear({ contractId: 'ctr_missing', reason: 'r', idempotencyKey: '' }, h.operator()));
      expect(missing).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'contract_not_found' });
      const noReason = await grpcError(integrity.correctErroneousClear({ contractId: a.contract.contractId, reason: '', idempotencyKey: '' }, h.operator()));
      expect(noReason).toMatchObject({ code: 'validation_failed' });
    });

    it('should answer insufficient_funds when the seller spent the payout, leave the contract settled, and succeed later', async () => {
      const s = await settled();
      const other = h.newAgent('other');
      await h.wallet.transfer({ agentId: s.seller.agentId, toAgentId: other.agentId, amount: '90', currency: 'CREDIT', idempotencyKey: 'spend-1' });
      const short = await grpcError(integrity.correctErroneousClear({ contractId: s.contract.contractId, reason: 'wrong', idempotencyKey: '' }, h.operator()));
      expect(short).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds' });
      expect((await h.client.getContract({ contractId: s.contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
      expect(await h.balances(s.buyer.agentId)).toEqual({ available: '50', held: '0' });
      expect((await h.outbox(s.contract.contractId)).map((e) => e.type)).not.toContain('exchange.market.contract.corrected');

      await h.wallet.transfer({ agentId: other.agentId, toAgentId: s.seller.agentId, amount: '90', currency: 'CREDIT', idempotencyKey: 'spend-2' });
      const ok = await integrity.correctErroneousClear({ contractId: s.contract.contractId, reason: 'wrong', idempotencyKey: '' }, h.operator());
      expect(ok.contract!.status).toBe(CS.CONTRACT_STATUS_CORRECTED);
      expect(await h.balances(s.buyer.agentId)).toEqual({ available: '150', held: '0' });
      expect((await h.wallet.checkLedger({})).ok).toBe(true);
    });
  });
});
