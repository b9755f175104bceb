import { CommerceHttp, MERCHANT, sessionPath } from './commerce-http';
import { expectProblem, http } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { newKey } from './wallet-http';

// Commerce intents and purchase feedback through the whole stack, as an agent without the SDK
// makes them: an intent (AP2 IntentMandate) bounds the checkouts that name it — each rule the
// built-in sandbox merchant lets us reach refuses with its 403 — and the buyer of a completed
// purchase rates it once. Two roses cost 70 USD at the sandbox merchant.

let stack: Stack;
let c: CommerceHttp;
let buyer: RawAgent;
let signer: RawAgent;
let stranger: RawAgent;
let mandateId: string;

const inADay = () => new Date(Date.now() + 86_400_000).toISOString();
const intentBody = (over: Record<string, unknown> = {}) => ({
  description: 'Two bouquets of red roses for the office',
  merchants: [MERCHANT],
  skus: ['bouquet_roses'],
  budget: { amount: '100', currency: 'USD' },
  requires_refundability: true,
  expires_at: inADay(),
  ...over,
});

async function createIntent(agent: RawAgent, over: Record<string, unknown> = {}): Promise<any> {
  return c.expectStatus(c.as(agent, 'POST', '/v1/commerce/intents/create', intentBody(over), { 'idempotency-key': newKey('intent') }), 201);
}

const roses = (quantity: number, intentId?: string) => c.checkoutBody(mandateId, [['bouquet_roses', quantity]], intentId === undefined ? {} : { intent_id: intentId });

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  [buyer, signer, stranger] = await Promise.all([c.newAgent('intent-buyer'), c.newAgent('intent-signer'), c.newAgent('intent-stranger')]);
  await c.fund(buyer, '500', 'USD');
  mandateId = (await c.createMandate(signer, buyer, { perTransaction: '500', total: '1000' })).mandate_id;
});

afterAll(async () => {
  await stack?.stop();
});

describe('POST /v1/commerce/intents/create', () => {
  it('creates the intent for the acting agent and replays it under the same key', async () => {
    const key = newKey('intent');
    const body = intentBody();
    const res = await c.as(buyer, 'POST', '/v1/commerce/intents/create', body, { 'idempotency-key': key });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      agent_id: buyer.agentId,
      description: body.description,
      merchants: [MERCHANT],
      skus: ['bouquet_roses'],
      budget: { amount: '100', currency: 'USD' },
      requires_refundability: true,
      expires_at: body.expires_at,
    });
    expect(res.body.intent_id).toMatch(/^int_/);
    const again = await c.as(buyer, 'POST', '/v1/commerce/intents/create', body, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.intent_id).toBe(res.body.intent_id);
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/intents/create', { ...body, budget: { amount: '99', currency: 'USD' } }, { 'idempotency-key': key }), 422, 'idempotency_key_reused');
  });

  it('lets the operator create an intent for a named agent', async () => {
    const res = await c.op('POST', '/v1/commerce/intents/create', intentBody({ agent_id: buyer.agentId, merchants: [], skus: [] }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ agent_id: buyer.agentId, merchants: [], skus: [] });
  });

  it('401 for an anonymous caller, 403 for another agent, 400 for a bad body', async () => {
    expectProblem(await http(stack.baseUrl, 'POST', '/v1/commerce/intents/create', { body: intentBody() }), 401, 'unauthenticated');
    expectProblem(await c.as(stranger, 'POST', '/v1/commerce/intents/create', intentBody({ agent_id: buyer.agentId })), 403, 'acting_agent_mismatch');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/intents/create', intentBody({ description: '' })), 400, 'validation_failed');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/intents/create', intentBody({ description: '   ' })), 400, 'validation_failed');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/intents/create', intentBody({ budget: { amount: '0', currency: 'USD' } })), 400, 'invalid_amount');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/intents/create', intentBody({ expires_at: '2020-01-01T00:00:00.000Z' })), 400, 'validation_failed');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/intents/create', intentBody({ merchants: ['https://shop.example/'] })), 400, 'invalid_merchant_domain');
  });

  it('binds a checkout to its intent: the intent is the first evidence item and the session completes within it', async () => {
    const intent = await createIntent(buyer);
    const created = await c.expectStatus(c.createCheckout(buyer, roses(2, intent.intent_id)), 201);
    expect(created).toMatchObject({ intent_id: intent.intent_id, total: '70', status: 'ready_for_complete' });
    const page = await c.expectStatus(c.as(buyer, 'GET', sessionPath(created.commerce_session_id, '/artifacts?limit=50')), 200);
    expect(page.items[0]).toMatchObject({ kind: 'intent', content: { intent_id: intent.intent_id, budget: { amount: '100', currency: 'USD' } } });
    expect(page.chain_valid).toBe(true);
    const done = await c.expectStatus(c.as(buyer, 'POST', sessionPath(created.commerce_session_id, '/complete'), {}, { 'idempotency-key': newKey('complete') }), 200);
    expect(done.session).toMatchObject({ status: 'completed', intent_id: intent.intent_id });
  });

  it.each<[string, () => Promise<Record<string, unknown>>, number, string]>([
    ['an unknown intent', async () => roses(2, 'int_unknown'), 404, 'intent_not_found'],
    ["another agent's intent", async () => roses(2, (await createIntent(stranger)).intent_id), 403, 'not_intent_agent'],
    ['a merchant outside the intent', async () => roses(2, (await createIntent(buyer, { merchants: ['florist.example'] })).intent_id), 403, 'intent_merchant_not_allowed'],
    ['a sku outside the intent', async () => roses(2, (await createIntent(buyer, { skus: ['pot_ceramic'] })).intent_id), 403, 'intent_sku_not_allowed'],
    ['a budget in another currency', async () => roses(2, (await createIntent(buyer, { budget: { amount: '100', currency: 'EUR' } })).intent_id), 403, 'intent_currency_mismatch'],
    ['a total over the budget', async () => roses(3, (await createIntent(buyer)).intent_id), 403, 'intent_budget_exceeded'],
  ])('refuses a checkout naming %s', async (_name, body, status, code) => {
    expectProblem(await c.createCheckout(buyer, await body()), status, code);
  });

  it('refuses a checkout under an intent that has expired', async () => {
    const expiresAt = Date.now() + 1500;
    const intent = await createIntent(buyer, { expires_at: new Date(expiresAt).toISOString() });
    // Wait until the expiry has certainly passed (not a timing assertion: the outcome is fixed after it).
    while (Date.now() <= expiresAt + 250) await new Promise((r) => setTimeout(r, 100));
    expectProblem(await c.createCheckout(buyer, roses(2, intent.intent_id)), 403, 'intent_expired');
  });

  it('refuses an update over the budget, then the complete, until the cart is back within it', async () => {
    const intent = await createIntent(buyer);
    const created = await c.expectStatus(c.createCheckout(buyer, roses(1, intent.intent_id)), 201);
    const path = sessionPath(created.commerce_session_id);
    const over = await c.as(buyer, 'POST', `${path}/update`, { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 3 }] }, { 'idempotency-key': newKey('update') });
    expectProblem(over, 403, 'intent_budget_exceeded');
    expect(over.body).toMatchObject({ total: '105', budget: '100' });
    expectProblem(await c.as(buyer, 'POST', `${path}/complete`, {}, { 'idempotency-key': newKey('complete') }), 403, 'intent_budget_exceeded');
    const skus = await c.as(buyer, 'POST', `${path}/update`, { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }] }, { 'idempotency-key': newKey('update') });
    expectProblem(skus, 403, 'intent_sku_not_allowed');
    const back = await c.expectStatus(c.as(buyer, 'POST', `${path}/update`, { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }] }, { 'idempotency-key': newKey('update') }), 200);
    expect(back.total).toBe('70');
  });
});

describe('POST /v1/commerce/feedback/record', () => {
  let dealId: string;

  beforeAll(async () => {
    const created = await c.expectStatus(c.createCheckout(buyer, roses(1)), 201);
    const done = await c.expectStatus(c.as(buyer, 'POST', sessionPath(created.commerce_session_id, '/complete'), {}, { 'idempotency-key': newKey('complete') }), 200);
    dealId = done.purchase.deal_id;
  });

  it('401 anonymous, 400 a bad rating, 403 not the buyer, 404 an unknown deal — none recorded', async () => {
    expectProblem(await http(stack.baseUrl, 'POST', '/v1/commerce/feedback/record', { body: { deal_id: dealId, rating: 5 } }), 401, 'unauthenticated');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: dealId, rating: 6 }), 400, 'validation_failed');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: dealId, rating: 0 }), 400, 'validation_failed');
    expectProblem(await c.as(stranger, 'POST', '/v1/commerce/feedback/record', { deal_id: dealId, rating: 1 }), 403, 'not_deal_buyer');
    expectProblem(await c.op('POST', '/v1/commerce/feedback/record', { deal_id: dealId, rating: 1 }), 403, 'not_deal_buyer');
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: 'deal_unknown', rating: 5 }), 404, 'purchase_not_found');
  });

  it("records the buyer's rating once; a second is 409 feedback_exists", async () => {
    const res = await c.as(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: dealId, rating: 4, comment: 'Fresh, one day late' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ deal_id: dealId, buyer_agent_id: buyer.agentId, merchant_domain: MERCHANT, rating: 4, comment: 'Fresh, one day late' });
    expect(res.body.feedback_id).toMatch(/^fbk_/);
    expectProblem(await c.as(buyer, 'POST', '/v1/commerce/feedback/record', { deal_id: dealId, rating: 5 }), 409, 'feedback_exists');
    await c.expectLedgerOk();
  });
});
