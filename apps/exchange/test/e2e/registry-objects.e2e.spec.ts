import { expectProblem } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';
import { RegistryHttp } from './registry-http';
import { bootStack, type Stack } from './stack';

// Signed objects through the gateway: forged, changed, mis-attributed and revoked-key signatures
// are refused with clear codes; access per visibility for the signer, a listed party, a
// stranger, the operator and an anonymous caller (always 401: DESIGN §3, issue 13 item 7).

let stack: Stack;
let r: RegistryHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

describe('registry objects: signatures', () => {
  it('stores a signed object once (201 then 200, Location) and refuses a forgery, a changed payload and a wrong signer', async () => {
    const alice = await r.newAgent('obj-alice');
    const mallory = await r.newAgent('obj-mallory');
    const payload = { note: 'hello', n: 1, nested: { b: [1, 2], a: 'x' } };
    const body = r.objectBody(alice, payload, { tags: ['greeting'] });
    const first = await r.storeObject(alice, body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ type: 'note', payload, signer_agent_id: alice.agentId, visibility: 'public', tags: ['greeting'] });
    expect(first.body.object_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(first.body.signer_public_key).toBe(alice.publicKey);
    expect(first.headers.get('location')).toContain(first.body.object_id);
    const again = await r.storeObject(alice, body);
    expect(again.status).toBe(200);
    expect(again.body.object_id).toBe(first.body.object_id);

    // Forgery: mallory signs, claims alice (acting as alice through the operator token).
    const forged = { ...body, payload: { note: 'forged' }, signature: r.signPayload(mallory, { note: 'forged' }) };
    expectProblem(await r.op('POST', '/v1/objects', forged, { 'x-agent-id': alice.agentId }), 400, 'object_signature_invalid');
    // The payload changed after alice signed it.
    expectProblem(await r.storeObject(alice, { ...body, payload: { ...payload, n: 2 } }), 400, 'object_signature_invalid');
    // Signed by mallory, who claims alice as the signer.
    expectProblem(await r.storeObject(mallory, r.objectBody(alice, { note: 'mine' })), 403, 'acting_agent_mismatch');
    // Unknown signer (operator on its own).
    const ghost = new RawAgent(uniqueAgentId('ghost'));
    expectProblem(await r.op('POST', '/v1/objects', r.objectBody(ghost, { note: 'boo' })), 404, 'agent_not_found');
    // Reserved types.
    for (const type of ['party_alias_token', 'identity_reveal']) {
      expectProblem(await r.storeObject(alice, r.objectBody(alice, { alias: 'anon:aaaaaaaaaaaa' }, { type })), 403, 'reserved_type');
    }
    const listed = await r.expectStatus(r.op('GET', '/v1/objects?tag=greeting&limit=200'), 200);
    expect(listed.data.filter((o: any) => o.signer_agent_id === alice.agentId).map((o: any) => o.object_id)).toEqual([first.body.object_id]);
  });

  it('refuses a signature by a revoked key, accepts the same payload by the primary key', async () => {
    const agent = new RawAgent(uniqueAgentId('obj-rotating'));
    const second = new RawAgent(agent.agentId);
    await r.expectStatus(r.op('POST', '/v1/agents', { ...agent.registrationBody(), pubkey_set: [second.publicKey] }), 201);
    const payload = { note: 'signed by the second key' };
    await r.expectStatus(r.op('POST', '/v1/objects', r.objectBody(second, payload), { 'x-agent-id': agent.agentId }), 201);
    await r.expectStatus(
      r.op('POST', `/v1/agents/${encodeURIComponent(agent.agentId)}/keys/${encodeURIComponent(second.publicKey)}/revoke`, { reason: 'lost' }),
      200,
    );
    const later = { note: 'after revocation' };
    expectProblem(await r.op('POST', '/v1/objects', r.objectBody(second, later), { 'x-agent-id': agent.agentId }), 400, 'object_signature_invalid');
    await r.expectStatus(r.storeObject(agent, r.objectBody(agent, later)), 201);
  });
});

describe('registry objects: access by visibility', () => {
  it('public | parties | operator × signer, party, stranger, operator, anonymous', async () => {
    const signer = await r.newAgent('acc-signer');
    const party = await r.newAgent('acc-party');
    const stranger = await r.newAgent('acc-stranger');
    const ids: Record<string, string> = {};
    for (const visibility of ['public', 'parties', 'operator'] as const) {
      const res = await r.storeObject(signer, r.objectBody(signer, { visibility, at: Date.now() }, { visibility, parties: [party.agentId], tags: ['matrix'] }));
      expect(res.status).toBe(201);
      ids[visibility] = res.body.object_id;
    }
    const get = (who: 'signer' | 'party' | 'stranger' | 'operator' | 'anon', id: string) => {
      const path = `/v1/objects/${encodeURIComponent(id)}`;
      if (who === 'operator') return r.op('GET', path);
      if (who === 'anon') return r.anon('GET', path);
      return r.as({ signer, party, stranger }[who], 'GET', path);
    };
    const expected: Record<string, Record<string, number>> = {
      public: { signer: 200, party: 200, stranger: 200, operator: 200, anon: 401 },
      parties: { signer: 200, party: 200, stranger: 403, operator: 200, anon: 401 },
      operator: { signer: 403, party: 403, stranger: 403, operator: 200, anon: 401 },
    };
    const got: Record<string, Record<string, number>> = {};
    for (const visibility of Object.keys(expected)) {
      got[visibility] = {};
      for (const who of Object.keys(expected[visibility]!)) {
        const res = await get(who as 'signer', ids[visibility]!);
        got[visibility]![who] = res.status;
        if (res.status === 403) expectProblem(res, 403, 'access_denied');
        if (res.status === 401) expectProblem(res, 401, 'unauthenticated');
        if (res.status === 200) expect(res.body.object_id).toBe(ids[visibility]);
      }
    }
    expect(got).toEqual(expected);
    // The operator acting as the stranger is the stranger.
    expectProblem(await r.op('GET', `/v1/objects/${encodeURIComponent(ids.parties!)}`, undefined, { 'x-agent-id': stranger.agentId }), 403, 'access_denied');
    // Listing shows only what the caller may see.
    const listedBy = async (res: Promise<any>) => ((await r.expectStatus(res, 200)).data as any[]).filter((o) => o.signer_agent_id === signer.agentId).map((o) => o.visibility).sort();
    expect(await listedBy(r.as(stranger, 'GET', '/v1/objects?tag=matrix&limit=200'))).toEqual(['public']);
    expect(await listedBy(r.as(party, 'GET', '/v1/objects?tag=matrix&limit=200'))).toEqual(['parties', 'public']);
    expect(await listedBy(r.op('GET', '/v1/objects?tag=matrix&limit=200'))).toEqual(['operator', 'parties', 'public']);
    expectProblem(await r.anon('GET', '/v1/objects?tag=matrix&limit=200'), 401, 'unauthenticated');
    expectProblem(await r.op('GET', `/v1/objects/${encodeURIComponent('sha256:' + '0'.repeat(64))}`), 404, 'object_not_found');
  });
});
