import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { contractInput, grpcError, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

// Contract labels and input_refs (the workflows service's shard contracts): stored, returned by
// every read, carried by the contract events, part of the idempotent payload.

const LABELS = { workflow_run_id: 'wfr_01J0', stage: 'map', shard: '3', attempt: '1' };
const INPUT_REFS = ['res_01', 'sha256:' + 'a'.repeat(64)];

describe('market contracts: labels and input_refs (gRPC)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_contract_labels' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** How the workflows service calls: an operator acting for the buyer (x-actor operator:…, x-agent-id buyer). */
  const forBuyer = (buyer: TestAgent) => ({ actor: 'operator:workflows', agentId: buyer.agentId });

  it('should store them, return them from Create/Get/List and carry them in contract.created', async () => {
    const buyer = h.newAgent('buyer');
    const { contract } = await h.client.createContract(contractInput({ buyerId: buyer.agentId, labels: LABELS, inputRefs: INPUT_REFS }), forBuyer(buyer));
    expect(contract).toMatchObject({ buyerId: buyer.agentId, labels: LABELS, inputRefs: INPUT_REFS });
    const stored = await h.marketSql.query('SELECT labels, input_refs FROM contracts WHERE id = $1', [contract!.contractId]);
    expect(stored.rows[0]).toEqual({ labels: LABELS, input_refs: INPUT_REFS });
    expect((await h.client.getContract({ contractId: contract!.contractId })).contract).toEqual(contract);
    const listed = await h.client.listContracts({ buyerId: buyer.agentId, page: undefined });
    expect(listed.contracts.map((c) => [c.labels, c.inputRefs])).toEqual([[LABELS, INPUT_REFS]]);
    const events = await h.outbox(contract!.contractId);
    expect(events.map((e) => e.type)).toEqual(['exchange.market.contract.created']);
    expect(events[0].data.contract).toMatchObject({ contractId: contract!.contractId, labels: LABELS, inputRefs: INPUT_REFS });
  });

  it('should answer {} and [] for a contract created without them', async () => {
    const buyer = h.newAgent('buyer');
    const { contract } = await h.client.createContract(contractInput(), h.as(buyer));
    expect([contract!.labels, contract!.inputRefs]).toEqual([{}, []]);
    expect((await h.client.getContract({ contractId: contract!.contractId })).contract).toMatchObject({ labels: {}, inputRefs: [] });
  });

  it('should keep the request labels on a contract created from a template', async () => {
    const buyer = h.newAgent('buyer');
    const req = marketV1.CreateContractRequest.fromPartial({ title: 'Extract invoices', templateId: 'data-extraction-to-json-schema', labels: LABELS, inputRefs: INPUT_REFS });
    const { contract } = await h.client.createContract(req, h.as(buyer));
    expect(contract).toMatchObject({ templateId: 'data-extraction-to-json-schema', labels: LABELS, inputRefs: INPUT_REFS });
  });

  it('should replay the same labelled request and refuse the same key with other labels or refs (idempotency_key_reused)', async () => {
    const buyer = h.newAgent('buyer');
    const req = contractInput({ buyerId: buyer.agentId, labels: LABELS, inputRefs: INPUT_REFS, idempotencyKey: 'shard-3-attempt-1' });
    const first = await h.client.createContract(req, forBuyer(buyer));
    const again = await h.client.createContract(req, forBuyer(buyer));
    expect(again).toEqual({ contract: first.contract, idempotentReplayed: true });
    const reused = { grpcCode: status.INVALID_ARGUMENT, code: 'idempotency_key_reused' };
    expect(await grpcError(h.client.createContract({ ...req, labels: { ...LABELS, attempt: '2' } }, forBuyer(buyer)))).toMatchObject(reused);
    expect(await grpcError(h.client.createContract({ ...req, inputRefs: ['res_other'] }, forBuyer(buyer)))).toMatchObject(reused);
    expect((await h.client.listContracts({ buyerId: buyer.agentId, page: undefined })).contracts).toHaveLength(1);
  });

  it('should refuse bad labels and input_refs with 400 validation_failed naming the field, storing nothing', async () => {
    const buyer = h.newAgent('buyer');
    const cases: Array<[Partial<marketV1.CreateContractRequest>, string]> = [
      [{ labels: { 'Bad Key': 'x' } }, 'labels'],
      [{ labels: { stage: '' } }, 'labels'],
      [{ labels: { stage: 'x'.repeat(257) } }, 'labels'],
      [{ labels: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'labels'],
      [{ inputRefs: [''] }, 'input_refs'],
      [{ inputRefs: ['x'.repeat(513)] }, 'input_refs'],
      [{ inputRefs: Array.from({ length: 65 }, (_, i) => `r${i}`) }, 'input_refs'],
    ];
    for (const [overrides, field] of cases) {
      const err = await grpcError(h.client.createContract(contractInput(overrides), h.as(buyer)));
      expect([field, err.grpcCode, err.code, err.details?.['field']]).toEqual([field, status.INVALID_ARGUMENT, 'validation_failed', field]);
    }
    expect((await grpcError(h.client.createContract(contractInput({ labels: { 'Bad Key': 'x' } }), h.as(buyer)))).message).toContain('"Bad Key"');
    expect((await h.client.listContracts({ buyerId: buyer.agentId, page: undefined })).contracts).toHaveLength(0);
  });

  it('should let the operator acting for the buyer cancel the awarded contract: escrow refunded, labels in contract.cancelled', async () => {
    const buyer = h.newAgent('buyer');
    const seller = h.newAgent('seller');
    await h.fund(buyer.agentId, '150');
    const { contract } = await h.client.createContract(contractInput({ buyerId: buyer.agentId, labels: LABELS }), forBuyer(buyer));
    const { offer } = await h.client.submitOffer(
      marketV1.SubmitOfferRequest.fromPartial({ contractId: contract!.contractId, price: { amount: '100', currency: 'CREDIT' }, eta: contract!.deadline, terms: 'ok' }),
      h.as(seller),
    );
    await h.client.awardOffer({ contractId: contract!.contractId, offerId: offer!.offerId, idempotencyKey: '' }, forBuyer(buyer));
    expect(await h.balances(buyer.agentId)).toEqual({ available: '50', held: '100' });
    const res = await h.client.cancelContract({ contractId: contract!.contractId, reason: 'shard retried', idempotencyKey: '' }, forBuyer(buyer));
    expect(res.contract).toMatchObject({ status: marketV1.ContractStatus.CONTRACT_STATUS_CANCELLED, escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_RELEASED, labels: LABELS });
    expect(await h.balances(buyer.agentId)).toEqual({ available: '150', held: '0' });
    const cancelled = (await h.outbox(contract!.contractId)).find((e) => e.type === 'exchange.market.contract.cancelled');
    expect(cancelled?.data.contract.labels).toEqual(LABELS);
  });
});
