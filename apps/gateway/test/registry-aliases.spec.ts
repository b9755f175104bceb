import { canonicalize, sha256Hex } from '@exchange/crypto';
import { identityV1, marketV1, registryV1 } from '@exchange/proto';
import { randomBytes } from 'node:crypto';
import { expectProblem, registerAgent, TestAgent, uniqueAgentId } from './harness';
import { alice, anonymous, asOperator, bob, carol, h, R, SIG, signed, useRegistryHarness } from './registry-setup';

// Party alias tokens and identity reveals (reads and mints) through app.inject(), as
// registry-objects.spec.ts.

useRegistryHarness();

describe('GET /v1/party_alias_tokens/{object_id}', () => {
  it('should read a token for any authenticated agent (401 without credentials) and refuse an object of another type (404)', async () => {
    const token: registryV1.RegistryObject = {
      objectId: `sha256:${'4'.repeat(64)}`, type: 'party_alias_token', payloadJson: '{"alias":"anon:abcdefghijkl","contract_id":"ctr_1","role":"buyer"}',
      signerAgentId: 'exchange', signature: 'sig', signerPublicKey: 'pub', visibility: R.Visibility.VISIBILITY_PUBLIC, parties: [], tags: [], createdAt: new Date(1_790_000_000_000),
    };
    h.registry.objects.set(token.objectId, token);
    expectProblem(await anonymous('GET', `/v1/party_alias_tokens/${token.objectId}`), 401, 'unauthenticated');
    const res = await signed(carol, 'GET', `/v1/party_alias_tokens/${token.objectId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object_id: token.objectId, type: 'party_alias_token', payload: { alias: 'anon:abcdefghijkl', contract_id: 'ctr_1', role: 'buyer' }, signer_agent_id: 'exchange' });
    expect(h.registry.lastCall('getObject').request).toEqual({ objectId: token.objectId, type: 'party_alias_token' });
    const note = (await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: 'n', signature: SIG })).json().object_id;
    expectProblem(await signed(carol, 'GET', `/v1/party_alias_tokens/${note}`), 404, 'object_not_found');
  });
});

describe('GET /v1/identity_reveals/{object_id}', () => {
  it('should serve a reveal to the operator and reveal_to only (403 access_denied otherwise, 401 anonymous)', async () => {
    const reveal: registryV1.RegistryObject = {
      objectId: `sha256:${'5'.repeat(64)}`, type: 'identity_reveal',
      payloadJson: JSON.stringify({ alias: 'anon:abcdefghijkl', agent_id: alice.agentId, contract_id: 'ctr_1', reveal_to: bob.agentId }),
      signerAgentId: 'exchange', signature: 'sig', signerPublicKey: 'pub', visibility: R.Visibility.VISIBILITY_PARTIES, parties: [bob.agentId], tags: [], createdAt: new Date(1_790_000_000_000),
    };
    h.registry.objects.set(reveal.objectId, reveal);
    expect((await asOperator('GET', `/v1/identity_reveals/${reveal.objectId}`)).statusCode).toBe(200);
    const byBob = await signed(bob, 'GET', `/v1/identity_reveals/${reveal.objectId}`);
    expect(byBob.statusCode).toBe(200);
    expect(byBob.json().payload).toEqual({ alias: 'anon:abcdefghijkl', agent_id: alice.agentId, contract_id: 'ctr_1', reveal_to: bob.agentId });
    const stranger = new TestAgent(uniqueAgentId('peeker'));
    await registerAgent(h.app, stranger);
    expectProblem(await signed(stranger, 'GET', `/v1/identity_reveals/${reveal.objectId}`), 403, 'access_denied');
    expectProblem(await anonymous('GET', `/v1/identity_reveals/${reveal.objectId}`), 401, 'unauthenticated');
  });
});

/** A contract in the fake market (buyer alice unless overridden). */
const contract = (over: Partial<marketV1.Contract> = {}): marketV1.Contract => {
  const c = {
    contractId: `ctr_alias-${randomBytes(4).toString('hex')}`,
    buyerId: alice.agentId,
    title: 't',
    description: '',
    tags: [],
    budget: { amount: '10', currency: 'CREDIT' },
    deadline: new Date('2030-01-01T00:00:00.000Z'),
    acceptanceCriteria: 'a',
    verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
    status: marketV1.ContractStatus.CONTRACT_STATUS_OPEN,
    escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_NONE,
    createdAt: new Date(1_790_000_000_000),
    updatedAt: new Date(1_790_000_000_000),
    buyerAliasGeneration: 0,
    labels: {},
    inputRefs: [],
    ...over,
  } as marketV1.Contract;
  h.market.contracts.set(c.contractId, c);
  return c;
};

describe('POST /v1/party_alias_tokens/mint', () => {

  it('should mint the buyer alias for the buyer (201, then 200 with the same token), signed with the published key', async () => {
    const c = contract();
    const res = await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' });
    expect(res.statusCode).toBe(201);
    const token = res.json();
    expect(token).toEqual({
      object_id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      alias: expect.stringMatching(/^anon:/),
      contract_id: c.contractId,
      role: 'buyer',
      payload: { alias: token.alias, contract_id: c.contractId, role: 'buyer' },
      signature: expect.any(String),
      signer_public_key: (await anonymous('GET', '/health')).json().exchange_public_key,
    });
    // The buyer's current alias generation travels with the request (issue 13: no stale alias).
    expect(h.identity.calls.filter((x) => x.method === 'mintPartyAlias').at(-1)!.request).toEqual({
      contractId: c.contractId,
      role: identityV1.PartyRole.PARTY_ROLE_BUYER,
      agentId: alice.agentId,
      generation: 0,
    });
    const again = await asOperator('POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(token);
  });

  it("should ask identity for the buyer alias of the contract's current generation (after a rotation)", async () => {
    const c = contract({ buyerPrivate: true, buyerAlias: 'anon:rotatedaliasx', buyerAliasGeneration: 2 });
    expect((await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' })).statusCode).toBe(201);
    expect(h.identity.calls.filter((x) => x.method === 'mintPartyAlias').at(-1)!.request).toEqual({
      contractId: c.contractId,
      role: identityV1.PartyRole.PARTY_ROLE_BUYER,
      agentId: alice.agentId,
      generation: 2,
    });
  });

  it('should refuse another agent (403 not_contract_party), a seller before the award (409) and an unknown contract (404)', async () => {
    const c = contract();
    expectProblem(await signed(bob, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' }), 403, 'not_contract_party');
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'seller' }), 409, 'invalid_state');
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: 'ctr_none', role: 'buyer' }), 404, 'contract_not_found');
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'verifier' }), 400, 'validation_failed');
  });

  it('should mint the seller alias for the awarded seller', async () => {
    const c = contract({ sellerId: bob.agentId, status: marketV1.ContractStatus.CONTRACT_STATUS_AWARDED });
    const res = await signed(bob, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'seller' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ role: 'seller', payload: { role: 'seller' } });
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'seller' }), 403, 'not_contract_party');
  });
});

describe('POST /v1/identity_reveals/mint', () => {
  it('should mint a reveal by the aliased agent and answer the stored object; refuse others', async () => {
    const { contractId } = contract();
    const minted = await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: contractId, role: 'buyer' });
    expect(minted.statusCode).toBe(201);
    const { alias } = minted.json();
    // The registry holds what identity stored there (the fake identity does not call it).
    const payload = { alias, agent_id: alice.agentId, contract_id: contractId, reveal_to: bob.agentId };
    const objectId = `sha256:${sha256Hex(canonicalize({ type: 'identity_reveal', payload, signer_agent_id: 'exchange' }))}`;
    h.registry.objects.set(objectId, {
      objectId, type: 'identity_reveal', payloadJson: canonicalize(payload), signerAgentId: 'exchange', signature: 'sig', signerPublicKey: 'pub',
      visibility: R.Visibility.VISIBILITY_PARTIES, parties: [bob.agentId], tags: [], createdAt: new Date(1_790_000_000_000),
    });
    const res = await signed(alice, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias, reveal_to: bob.agentId });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ object_id: objectId, type: 'identity_reveal', payload, visibility: 'parties', parties: [bob.agentId] });
    expect(h.identity.calls.filter((x) => x.method === 'mintIdentityReveal').at(-1)!.ctx).toMatchObject({ agentId: alice.agentId });
    const again = await signed(alice, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias, reveal_to: bob.agentId });
    expect(again.statusCode).toBe(200);
    expectProblem(await signed(bob, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias, reveal_to: bob.agentId }), 403, 'not_alias_owner');
    expectProblem(await signed(alice, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias: 'anon:zzzzzzzzzzzz', reveal_to: bob.agentId }), 404, 'alias_not_found');
  });
});
