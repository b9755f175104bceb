import { status } from '@grpc/grpc-js';
import { integrityTestKit } from './integrity-kit';
import { marketV1, marketV1Integrity } from '@exchange/proto';
import { awardedContract, contractInput, grpcError, openContract, type MarketHarness } from './market-harness';

const CS = marketV1.ContractStatus;
const IS = marketV1Integrity.IntegrityState;

describe('market integrity (state, kill switches, enforcement, wallet controls)', () => {
  const kit = integrityTestKit('market_integrity_enforcement');
  const { setState, setSwitch, delivered, verify } = kit;
  let h: MarketHarness;
  beforeAll(() => void ({ h } = kit));

  const walletControls = async () => (await h.wallet.getControls({})).controls!;

  describe('enforcement: each state and switch blocks exactly its actions', () => {
    it('restricted: new contracts only', async () => {
      const open = await openContract(h);
      const d = await delivered();
      await setState(IS.INTEGRITY_STATE_ELEVATED);
      await h.client.createContract(contractInput(), h.as(open.buyer)); // elevated blocks nothing
      await setState(IS.INTEGRITY_STATE_RESTRICTED);
      expect(await grpcError(h.client.createContract(contractInput(), h.as(open.buyer)))).toMatchObject({
        grpcCode: status.UNAVAILABLE,
        code: 'market_restricted',
      });
      await h.client.awardOffer({ contractId: open.contract.contractId, offerId: open.offer.offerId, idempotencyKey: '' }, h.operator());
      expect((await verify(d.buyer, d.contract.contractId, d.result.resultId)).contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    });

    it('halted: new contracts, awards and settlements; refunds still go back; nothing changes on a refusal', async () => {
      const open = await openContract(h);
      const d = await delivered();
      const toCancel = await awardedContract(h);
      await setState(IS.INTEGRITY_STATE_ELEVATED);
      await setState(IS.INTEGRITY_STATE_RESTRICTED);
      await setState(IS.INTEGRITY_STATE_HALTED);
      expect(await grpcError(h.client.createContract(contractInput(), h.as(open.buyer)))).toMatchObject({ code: 'market_halted' });
      expect(
        await grpcError(h.client.awardOffer({ contractId: open.contract.contractId, offerId: open.offer.offerId, idempotencyKey: '' }, h.operator())),
      ).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'market_halted' });
      const eventsBefore = (await h.outbox(d.contract.contractId)).length;
      expect(await grpcError(verify(d.buyer, d.contract.contractId, d.result.resultId))).toMatchObject({ code: 'market_halted' });
      expect((await h.client.getContract({ contractId: d.contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_DELIVERED);
      expect((await h.outbox(d.contract.contractId)).length).toBe(eventsBefore);
      expect(await h.balances(d.buyer.agentId)).toEqual({ available: '50', held: '100' });
      // Money going back is never blocked.
      const cancelled = await h.client.cancelContract({ contractId: toCancel.contract.contractId, reason: 'halt', idempotencyKey: '' }, h.as(toCancel.seller));
      expect(cancelled.contract!.status).toBe(CS.CONTRACT_STATUS_CANCELLED);
      expect(await h.balances(toCancel.buyer.agentId)).toEqual({ available: '150', held: '0' });

      await setState(IS.INTEGRITY_STATE_NORMAL);
      expect((await verify(d.buyer, d.contract.contractId, d.result.resultId)).contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    });

    it('new_contracts and awards switches block only their action', async () => {
      const open = await openContract(h);
      await setSwitch('new_contracts', true);
      expect(await grpcError(h.client.createContract(contractInput(), h.as(open.buyer)))).toMatchObject({
        grpcCode: status.UNAVAILABLE,
        code: 'kill_switch:new_contracts',
      });
      await setSwitch('new_contracts', false);
      await setSwitch('awards', true);
      await h.client.createContract(contractInput(), h.as(open.buyer));
      const award = () => h.client.awardOffer({ contractId: open.contract.contractId, offerId: open.offer.offerId, idempotencyKey: '' }, h.operator());
      expect(await grpcError(award())).toMatchObject({ code: 'kill_switch:awards' });
      await setSwitch('awards', false);
      expect((await award()).contract!.status).toBe(CS.CONTRACT_STATUS_AWARDED);
    });

    it('settlements switch: passing reports and auto settles wait, failing reports do not; the wallet refuses too', async () => {
      const d = await delivered();
      const auto = await awardedContract(h, { contract: { verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_AUTO } });
      await setSwitch('settlements', true);
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: ['settlements'] });
      expect(await grpcError(verify(d.buyer, d.contract.contractId, d.result.resultId))).toMatchObject({ code: 'kill_switch:settlements' });
      const deliverAuto = () =>
        h.client.submitResult(
          { contractId: auto.contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: '{}', idempotencyKey: '' },
          h.as(auto.seller),
        );
      expect(await grpcError(deliverAuto())).toMatchObject({ code: 'kill_switch:settlements' });
      expect((await h.client.getContract({ contractId: auto.contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_AWARDED);
      // A failing report moves no money: allowed.
      const f = await delivered();
      expect((await verify(f.buyer, f.contract.contractId, f.result.resultId, 'fail')).contract!.status).toBe(CS.CONTRACT_STATUS_AWARDED);

      await setSwitch('settlements', false);
      expect((await verify(d.buyer, d.contract.contractId, d.result.resultId)).contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
      expect((await deliverAuto()).contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    });

    it('settlements switch: a resolution paying the seller waits, one refunding the buyer does not', async () => {
      const DO = marketV1.DisputeOutcome;
      const openDispute = async () => {
        const d = await delivered();
        const { dispute } = await h.client.openDispute(
          { contractId: d.contract.contractId, openedBy: '', reason: 'late', evidenceRefs: [], idempotencyKey: '' },
          h.as(d.buyer),
        );
        return { ...d, disputeId: dispute!.disputeId };
      };
      const toSeller = await openDispute();
      const toBuyer = await openDispute();
      await setSwitch('settlements', true);
      const resolve = (disputeId: string, outcome: marketV1.DisputeOutcome) =>
        h.client.resolveDispute({ disputeId, outcome, rationale: 'evidence', idempotencyKey: '' }, h.operator());
      expect(await grpcError(resolve(toSeller.disputeId, DO.DISPUTE_OUTCOME_SELLER))).toMatchObject({ code: 'kill_switch:settlements' });
      expect((await h.client.getContract({ contractId: toSeller.contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_DISPUTED);
      expect(await h.balances(toSeller.buyer.agentId)).toEqual({ available: '50', held: '100' });
      const refunded = await resolve(toBuyer.disputeId, DO.DISPUTE_OUTCOME_BUYER);
      expect(refunded.contract!.status).toBe(CS.CONTRACT_STATUS_REFUNDED);
      expect(await h.balances(toBuyer.buyer.agentId)).toEqual({ available: '150', held: '0' });
      await setSwitch('settlements', false);
      expect((await resolve(toSeller.disputeId, DO.DISPUTE_OUTCOME_SELLER)).contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    });

    it('withdrawals and faucet switches reach the wallet and block nothing in the market', async () => {
      const buyer = h.newAgent('buyer');
      await setSwitch('faucet', true);
      await setSwitch('withdrawals', true);
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: ['withdrawals', 'faucet'] });
      const faucet = await grpcError(h.wallet.faucet({ agentId: buyer.agentId, amount: '1', currency: 'CREDIT', category: 'c', idempotencyKey: 'k1' }));
      expect(faucet).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'kill_switch:faucet' });
      await setSwitch('faucet', false);
      await h.fund(buyer.agentId, '150');
      const { contract } = await h.client.createContract(contractInput(), h.as(buyer));
      expect(contract!.status).toBe(CS.CONTRACT_STATUS_OPEN);
    });

    it('read_only: every gated action, and the wallet goes read-only', async () => {
      const open = await openContract(h);
      const d = await delivered();
      await setSwitch('read_only', true);
      expect(await walletControls()).toMatchObject({ readOnly: true });
      expect(await grpcError(h.client.createContract(contractInput(), h.as(open.buyer)))).toMatchObject({ code: 'read_only' });
      expect(
        await grpcError(h.client.awardOffer({ contractId: open.contract.contractId, offerId: open.offer.offerId, idempotencyKey: '' }, h.operator())),
      ).toMatchObject({ code: 'read_only' });
      expect(await grpcError(verify(d.buyer, d.contract.contractId, d.result.resultId))).toMatchObject({ code: 'read_only' });
      // Reads still work, and so does the integrity API (it is how read-only mode is left).
      expect((await h.client.getContract({ contractId: d.contract.contractId })).contract!.status).toBe(CS.CONTRACT_STATUS_DELIVERED);
      await setSwitch('read_only', false);
      expect(await walletControls()).toEqual({ readOnly: false, killSwitches: [] });
    });
  });
});
