import { DomainError, errors, newId } from '@exchange/platform';
import { marketV1, workflowsV1 } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';
import { status } from '@grpc/grpc-js';
import { grpcError } from './support/mandates-harness';
import { agentActor, startCheckoutHarness, type CheckoutHarness, type TestAgent } from './support/checkout-harness';

// A checkout's origin against a fake market and a fake workflows (real gRPC, answers from the
// proto): the origin is checked there, stored on the session, and copied into the purchase and
// the events; a refused origin opens nothing at the merchant.
describe('commerce checkout origin (fake market and workflows, real merchant and wallet-ledger)', () => {
  let h: CheckoutHarness;
  let market: ProtoFake;
  let workflows: ProtoFake;
  let signer: TestAgent;
  let buyer: TestAgent;
  let stranger: TestAgent;
  let mandateId: string;
  const contractId = newId('ctr');
  const runId = newId('run');

  beforeAll(async () => {
    const parties = new Map<string, { buyerId: string; sellerId?: string }>();
    const runs = new Map<string, string>();
    market = await startProtoFake(marketV1.MarketServiceService, {
      getContract: (req) => {
        const p = parties.get(req.contractId);
        if (!p) throw errors.notFound('contract', req.contractId);
        return { contract: marketV1.Contract.fromPartial({ contractId: req.contractId, buyerId: p.buyerId, sellerId: p.sellerId }) };
      },
    });
    workflows = await startProtoFake(workflowsV1.WorkflowsServiceService, {
      getRun: (req) => {
        // As workflows answers: another agent's run is not found.
        if (runs.get(req.workflowRunId) !== req.actor?.agentId) throw errors.notFound('workflow_run', req.workflowRunId);
        return { run: workflowsV1.Run.fromPartial({ workflowRunId: req.workflowRunId, ownerAgentId: req.actor!.agentId }) };
      },
    });
    h = await startCheckoutHarness({ wallet: true, origins: { market: market.address, workflows: workflows.address } });
    signer = h.newAgent('signer');
    buyer = h.newAgent('buyer');
    stranger = h.newAgent('stranger');
    mandateId = await h.mandate(signer, buyer);
    parties.set(contractId, { buyerId: 'agt_contract_buyer', sellerId: buyer.agentId });
    runs.set(runId, buyer.agentId);
    await h.fundUsd(buyer.agentId, '100');
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await market?.stop();
    await workflows?.stop();
  });

  const sessionsOf = async (agentId: string) =>
    (await h.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_sessions WHERE buyer_agent_id = $1', [agentId])).rows[0].n;

  it('should accept the awarded seller of the origin contract, store the origin and copy it into the purchase and the events', async () => {
    const s = (await h.create(buyer, mandateId, { origin: { contractId } })).session!;
    expect(s.origin).toEqual({ contractId });
    expect(market.lastCall<marketV1.GetContractRequest>('getContract').request.contractId).toBe(contractId);
    expect((await h.client.getCheckout({ actor: agentActor(buyer), commerceSessionId: s.commerceSessionId, refresh: false })).session!.origin).toEqual({ contractId });
    const { rows } = await h.sql.query('SELECT origin_contract_id, origin_workflow_run_id FROM checkout_sessions WHERE commerce_session_id = $1', [s.commerceSessionId]);
    expect(rows[0]).toEqual({ origin_contract_id: contractId, origin_workflow_run_id: null });

    const done = await h.client.completeCheckout({ actor: agentActor(buyer), commerceSessionId: s.commerceSessionId, idempotencyKey: 'origin-complete-1' });
    expect(done.purchase!.origin).toEqual({ contractId });
    const events = await h.outbox(s.commerceSessionId);
    expect(events.find((e) => e.type === 'exchange.commerce.checkout.created')!.data.session.origin).toEqual({ contractId });
    const recorded = (await h.outbox(done.purchase!.dealId)).find((e) => e.type === 'exchange.commerce.purchase.recorded');
    expect(recorded!.data.purchase.origin).toEqual({ contractId });
    const stored = await h.sql.query('SELECT origin_contract_id FROM purchases WHERE deal_id = $1', [done.purchase!.dealId]);
    expect(stored.rows[0].origin_contract_id).toBe(contractId);
  });

  it("should accept the owner's workflow run, asked as the buyer", async () => {
    const s = (await h.create(buyer, mandateId, { origin: { workflowRunId: runId } })).session!;
    expect(s.origin).toEqual({ workflowRunId: runId });
    expect(workflows.lastCall<workflowsV1.GetRunRequest>('getRun').request).toMatchObject({ workflowRunId: runId, actor: { agentId: buyer.agentId, operator: false } });
  });

  it('should refuse a stranger to the contract with 403 origin_not_allowed and open nothing', async () => {
    const strangerMandate = await h.mandate(signer, stranger);
    const before = await sessionsOf(stranger.agentId);
    const err = await grpcError(h.create(stranger, strangerMandate, { origin: { contractId } }));
    expect(err).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'origin_not_allowed' });
    expect((await grpcError(h.create(stranger, strangerMandate, { origin: { workflowRunId: runId } }))).code).toBe('workflow_run_not_found');
    expect(await sessionsOf(stranger.agentId)).toBe(before);
  });

  it('should answer 404 for an unknown contract or run', async () => {
    expect(await grpcError(h.create(buyer, mandateId, { origin: { contractId: newId('ctr') } }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'contract_not_found' });
    expect(await grpcError(h.create(buyer, mandateId, { origin: { workflowRunId: newId('run') } }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'workflow_run_not_found' });
  });

  it('should refuse both ids, neither, or a malformed id with 400 validation_failed before asking anyone', async () => {
    const calls = market.log.count('getContract');
    const both = await grpcError(h.create(buyer, mandateId, { origin: { contractId, workflowRunId: runId } }));
    expect(both).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed', details: { field: 'origin' } });
    expect((await grpcError(h.create(buyer, mandateId, { origin: {} }))).code).toBe('validation_failed');
    expect((await grpcError(h.create(buyer, mandateId, { origin: { contractId: 'ctr_1' } }))).details).toEqual({ field: 'origin.contract_id' });
    expect(market.log.count('getContract')).toBe(calls);
  });

  it('should compare the origin when a create is replayed with the same key', async () => {
    const first = await h.create(buyer, mandateId, { idempotencyKey: 'origin-create-1', origin: { contractId } });
    const again = await h.create(buyer, mandateId, { idempotencyKey: 'origin-create-1', origin: { contractId } });
    expect(again.idempotentReplayed).toBe(true);
    expect(again.session!.commerceSessionId).toBe(first.session!.commerceSessionId);
    expect((await grpcError(h.create(buyer, mandateId, { idempotencyKey: 'origin-create-1', origin: { workflowRunId: runId } }))).code).toBe('idempotency_key_reused');
    expect((await grpcError(h.create(buyer, mandateId, { idempotencyKey: 'origin-create-1' }))).code).toBe('idempotency_key_reused');
  });

  it('should answer 503 market_unavailable when the market cannot be asked', async () => {
    market.failNext('getContract', new DomainError(status.UNAVAILABLE, 'unavailable', 'down'));
    expect(await grpcError(h.create(buyer, mandateId, { origin: { contractId } }))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'market_unavailable' });
  });
});
