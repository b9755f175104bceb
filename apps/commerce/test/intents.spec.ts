import { commerceV1 } from '@exchange/proto';
import { agentActor, grpcError, operatorActor, startMandatesHarness, type MandatesHarness, type TestAgent } from './support/mandates-harness';

// CreateIntent through gRPC against real PostgreSQL: who may create, the 400s, idempotency, and
// the intent row and its outbox event committed together.

describe('commerce intents: CreateIntent (PostgreSQL, identity)', () => {
  let h: MandatesHarness;
  let agent: TestAgent;

  const request = (over: Partial<commerceV1.CreateIntentRequest> = {}) =>
    commerceV1.CreateIntentRequest.fromPartial({
      actor: agentActor(agent),
      agentId: agent.agentId,
      description: 'Two bouquets of red roses for the office, at most 100 USD',
      merchants: ['sandbox-merchant.local'],
      skus: ['bouquet_roses'],
      budget: { amount: '100', currency: 'USD' },
      requiresRefundability: true,
      expiresAt: new Date(h.clock.now().getTime() + 7 * 86_400_000),
      ...over,
    });

  const intentCount = async () => (await h.sql.query('SELECT count(*)::int AS n FROM intents')).rows[0].n as number;

  beforeAll(async () => {
    h = await startMandatesHarness();
    agent = h.newAgent('buyer');
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('should store the intent for the acting agent and write intent.created in the same commit', async () => {
    const req = request();
    const { intent, idempotentReplayed } = await h.client.createIntent(req);
    expect(idempotentReplayed).toBe(false);
    expect(intent).toMatchObject({
      agentId: agent.agentId,
      description: req.description,
      merchants: ['sandbox-merchant.local'],
      skus: ['bouquet_roses'],
      budget: { amount: '100', currency: 'USD' },
      requiresRefundability: true,
      expiresAt: req.expiresAt,
    });
    expect(intent!.intentId).toMatch(/^int_/);
    const { rows } = await h.sql.query('SELECT budget::text AS budget, currency FROM intents WHERE intent_id = $1', [intent!.intentId]);
    expect(rows).toEqual([{ budget: '100000000', currency: 'USD' }]);
    const events = await h.outbox(intent!.intentId);
    expect(events.map((e) => e.type)).toEqual(['exchange.commerce.intent.created']);
    expect(events[0].data.intent).toMatchObject({ intentId: intent!.intentId, agentId: agent.agentId, budget: { amount: '100', currency: 'USD' } });
  });

  it('should let the operator create an intent for an agent', async () => {
    const { intent } = await h.client.createIntent(request({ actor: operatorActor, merchants: [], skus: [] }));
    expect(intent).toMatchObject({ agentId: agent.agentId, merchants: [], skus: [] });
    expect((await h.outbox(intent!.intentId))[0].type).toBe('exchange.commerce.intent.created');
  });

  it('should replay the same request under the same key and refuse the key with another body', async () => {
    const req = request({ idempotencyKey: 'intent-1' });
    const first = await h.client.createIntent(req);
    const again = await h.client.createIntent(req);
    expect(again.idempotentReplayed).toBe(true);
    expect(again.intent!.intentId).toBe(first.intent!.intentId);
    const before = await intentCount();
    expect((await grpcError(h.client.createIntent({ ...req, budget: { amount: '101', currency: 'USD' } }))).code).toBe('idempotency_key_reused');
    expect(await intentCount()).toBe(before);
  });

  it.each<[string, () => Partial<commerceV1.CreateIntentRequest>, string]>([
    ['another agent acting', () => ({ actor: agentActor('agt_someone_else') }), 'acting_agent_mismatch'],
    ['no caller', () => ({ actor: { agentId: '', operator: false } }), 'acting_agent_mismatch'],
    ['an empty description', () => ({ description: '' }), 'validation_failed'],
    ['a description of 2001 characters', () => ({ description: 'x'.repeat(2001) }), 'validation_failed'],
    ['a merchant that is a URL', () => ({ merchants: ['https://sandbox-merchant.local/'] }), 'invalid_merchant_domain'],
    ['no budget', () => ({ budget: undefined }), 'validation_failed'],
    ['a negative budget', () => ({ budget: { amount: '-1', currency: 'USD' } }), 'invalid_amount'],
    ['an unsupported currency', () => ({ budget: { amount: '1', currency: 'ZZZ' } }), 'unsupported_currency'],
    ['an expiry in the past', () => ({ expiresAt: new Date(h.clock.now().getTime() - 1000) }), 'validation_failed'],
    ['an expiry two years ahead', () => ({ expiresAt: new Date(h.clock.now().getTime() + 2 * 365 * 86_400_000) }), 'validation_failed'],
    ['an unknown agent (operator)', () => ({ actor: operatorActor, agentId: 'agt_unknown' }), 'agent_not_found'],
  ])('should refuse %s and store nothing', async (_name, over, code) => {
    const before = await intentCount();
    expect((await grpcError(h.client.createIntent(request(over())))).code).toBe(code);
    expect(await intentCount()).toBe(before);
  });
});
