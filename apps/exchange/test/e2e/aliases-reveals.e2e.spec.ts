import { expectProblem } from './http';
import { RegistryHttp } from './registry-http';
import { bootStack, type Stack } from './stack';

// Party alias tokens and identity reveals through the gateway: who may mint and read them, and a
// private buyer hidden (buyer_id null, the alias shown) from everyone but the parties and the operator.

let stack: Stack;
let r: RegistryHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

const ALIAS = /^anon:[a-z2-7]{12}$/;

describe('party alias tokens', () => {
  it('the role’s agent or the operator mints once (201 then 200); others 403; seller needs an award (409); tokens are public', async () => {
    const buyer = await r.newAgent('al-buyer');
    const seller = await r.newAgent('al-seller');
    const stranger = await r.newAgent('al-stranger');
    await r.fund(buyer, '150');
    const c = await r.openContract(buyer);
    const mint = (who: typeof buyer | 'operator', role: 'buyer' | 'seller') => {
      const body = { contract_id: c.contract_id, role };
      return who === 'operator' ? r.op('POST', '/v1/party_alias_tokens/mint', body) : r.as(who, 'POST', '/v1/party_alias_tokens/mint', body);
    };
    expectProblem(await mint(stranger, 'buyer'), 403, 'not_contract_party');
    expectProblem(await mint(seller, 'seller'), 409, 'invalid_state');
    const first = await mint(buyer, 'buyer');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ contract_id: c.contract_id, role: 'buyer', payload: { contract_id: c.contract_id, role: 'buyer' } });
    expect(first.body.alias).toMatch(ALIAS);
    expect(first.body.payload.alias).toBe(first.body.alias);
    expect(first.body.object_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(first.body.signer_public_key).toBe(await r.exchangePublicKey());
    const again = await mint('operator', 'buyer');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    // Readable by any authenticated agent, not anonymously (issue 13 item 7).
    const tokenPath = `/v1/party_alias_tokens/${encodeURIComponent(first.body.object_id)}`;
    expectProblem(await r.anon('GET', tokenPath), 401, 'unauthenticated');
    const token = await r.as(await r.newAgent('alias-reader'), 'GET', tokenPath);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ object_id: first.body.object_id, type: 'party_alias_token', signer_agent_id: 'exchange', visibility: 'public' });
    expect(JSON.stringify(token.body)).not.toContain(buyer.agentId);

    const offer = await r.submitOffer(seller, c.contract_id, '100');
    await r.expectStatus(r.award(c.contract_id, offer.offer_id), 200);
    expectProblem(await mint(buyer, 'seller'), 403, 'not_contract_party');
    const sellerAlias = await mint(seller, 'seller');
    expect(sellerAlias.status).toBe(201);
    expect(sellerAlias.body.alias).not.toBe(first.body.alias);
  });
});

describe('identity reveals', () => {
  it('only the aliased agent or the operator mints; only reveal_to and the operator read', async () => {
    const buyer = await r.newAgent('rv-buyer');
    const seller = await r.newAgent('rv-seller');
    const stranger = await r.newAgent('rv-stranger');
    const c = await r.openContract(buyer);
    const { alias } = await r.expectStatus(r.as(buyer, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contract_id, role: 'buyer' }), 201);
    const body = { contract_id: c.contract_id, alias, reveal_to: seller.agentId };

    expectProblem(await r.as(stranger, 'POST', '/v1/identity_reveals/mint', body), 403, 'not_alias_owner');
    expectProblem(await r.as(seller, 'POST', '/v1/identity_reveals/mint', body), 403, 'not_alias_owner');
    expectProblem(await r.op('POST', '/v1/identity_reveals/mint', { ...body, alias: 'anon:aaaaaaaaaaaa' }), 404, 'alias_not_found');

    const reveal = await r.as(buyer, 'POST', '/v1/identity_reveals/mint', body);
    expect(reveal.status).toBe(201);
    expect(reveal.body).toMatchObject({ type: 'identity_reveal', payload: { alias, agent_id: buyer.agentId, contract_id: c.contract_id, reveal_to: seller.agentId } });
    const again = await r.op('POST', '/v1/identity_reveals/mint', body);
    expect(again.status).toBe(200);
    expect(again.body.object_id).toBe(reveal.body.object_id);

    const path = `/v1/identity_reveals/${encodeURIComponent(reveal.body.object_id)}`;
    expect((await r.as(seller, 'GET', path)).body).toMatchObject({ object_id: reveal.body.object_id, payload: { agent_id: buyer.agentId } });
    expect((await r.op('GET', path)).status).toBe(200);
    expectProblem(await r.as(stranger, 'GET', path), 403, 'access_denied');
    expectProblem(await r.op('GET', path, undefined, { 'x-agent-id': stranger.agentId }), 403, 'access_denied');
    expect((await r.anon('GET', path)).status).toBe(401);
  });
});

describe('private buyers', () => {
  it('hides buyer_id behind the alias from non-parties, in reads and in the buyer_id filter', async () => {
    const buyer = await r.newAgent('pv-buyer');
    const seller = await r.newAgent('pv-seller');
    const stranger = await r.newAgent('pv-stranger');
    await r.fund(buyer, '150');
    const created = await r.openContract(buyer, { buyer_private: true });
    expect(created).toMatchObject({ buyer_id: buyer.agentId, buyer_private: true });
    expect(created.buyer_alias).toMatch(ALIAS);
    const id = created.contract_id as string;
    const read = async (who: typeof buyer | 'operator') =>
      r.expectStatus(who === 'operator' ? r.op('GET', `/v1/contracts/${id}`) : r.as(who, 'GET', `/v1/contracts/${id}`), 200);

    expect(await read(stranger)).toMatchObject({ buyer_id: null, buyer_alias: created.buyer_alias, buyer_private: true });
    expect(await read(seller)).toMatchObject({ buyer_id: null, buyer_alias: created.buyer_alias });
    expect(await read(buyer)).toMatchObject({ buyer_id: buyer.agentId, buyer_alias: created.buyer_alias });
    expect(await read('operator')).toMatchObject({ buyer_id: buyer.agentId });
    expect(JSON.stringify(await read(stranger))).not.toContain(buyer.agentId);

    const listed = async (who: typeof buyer) =>
      ((await r.expectStatus(r.as(who, 'GET', `/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}&limit=200`), 200)).data as any[]).map((x) => x.contract_id);
    expect(await listed(stranger)).not.toContain(id);
    expect(await listed(buyer)).toContain(id);

    // The alias minted by the market is the buyer's token.
    const token = await r.expectStatus(r.as(buyer, 'POST', '/v1/party_alias_tokens/mint', { contract_id: id, role: 'buyer' }), 200);
    expect(token.alias).toBe(created.buyer_alias);
    expectProblem(await r.as(stranger, 'POST', '/v1/party_alias_tokens/mint', { contract_id: id, role: 'buyer' }), 403, 'not_contract_party');

    // Once awarded, the seller is a party and sees the buyer.
    const offer = await r.submitOffer(seller, id, '100');
    await r.expectStatus(r.award(id, offer.offer_id), 200);
    expect(await read(seller)).toMatchObject({ buyer_id: buyer.agentId });
    expect(await read(stranger)).toMatchObject({ buyer_id: null });
  });
});
