import { randomBytes } from 'node:crypto';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';
import { ATTACKER_IP, CONTRACT, createContractCalls, forgedUpload, signedRequest, verifyCalls } from './agent-auth-abuse-kit';

// Issue 12 findings 9–12 (DESIGN §3): replayed signatures (X-Agent-Nonce), signatures bound to
// the agent, unauthenticated requests counted against the IP and never the agent they name, and
// failed authentication limited per IP — in memory, in Redis shared by two gateways, and with
// Redis unreachable (the last three in agent-auth-abuse-limits.spec.ts).

describe('replayed agent signatures (memory store)', () => {
  let h: Harness;
  let alice: TestAgent;

  beforeAll(async () => {
    h = await startHarness();
    alice = new TestAgent(uniqueAgentId('alice'));
    await registerAgent(h.app, alice);
  });
  afterAll(async () => {
    await h.close();
  });

  it('should refuse an identical signed POST /v1/contracts with 401 agent_nonce_reused and create nothing the second time', async () => {
    const request = signedRequest(alice, 'POST', '/v1/contracts', CONTRACT);
    const before = createContractCalls(h.market);
    expect((await h.app.inject(request)).statusCode).toBe(201);
    const replay = await h.app.inject(request);
    const problem = expectProblem(replay, 401, 'agent_nonce_reused');
    expect(problem.detail).toContain('X-Agent-Nonce');
    expect(createContractCalls(h.market)).toBe(before + 1);
    // The same contract signed again (a new nonce) is a new request.
    expect((await h.app.inject(signedRequest(alice, 'POST', '/v1/contracts', CONTRACT))).statusCode).toBe(201);
    expect(createContractCalls(h.market)).toBe(before + 2);
  });

  it('should refuse a replayed GET too', async () => {
    const request = signedRequest(alice, 'GET', `/v1/agents/${alice.agentId}`);
    expect((await h.app.inject(request)).statusCode).toBe(200);
    expectProblem(await h.app.inject(request), 401, 'agent_nonce_reused');
  });

  it('should not let a forged signature use up the nonce of the agent it names', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const nonce = randomBytes(16).toString('base64url');
    const forged = new TestAgent(alice.agentId).signedHeaders('GET', url, '', undefined, nonce);
    expectProblem(await h.app.inject({ method: 'GET', url, headers: forged }), 403, 'agent_signature_invalid');
    expect((await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url, '', undefined, nonce) })).statusCode).toBe(200);
  });

  it('should require X-Agent-Nonce of 16–64 URL-safe characters, without asking identity', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const before = verifyCalls(h.identity);
    const { 'x-agent-nonce': _n, ...withoutNonce } = alice.signedHeaders('GET', url);
    const missing = expectProblem(await h.app.inject({ method: 'GET', url, headers: withoutNonce }), 401, 'unauthenticated');
    expect(missing.detail).toBe('agent-signed request is missing X-Agent-Nonce');
    for (const bad of ['too-short-nonce', 'n'.repeat(65), 'has+plus/and=padding==']) {
      expectProblem(await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url, '', undefined, bad) }), 401, 'agent_nonce_invalid');
    }
    expect(verifyCalls(h.identity)).toBe(before);
  });
});

describe('a signature is bound to the agent it names', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('should refuse a signature made for agent A presented with X-Agent-Id B, even when B holds the same key', async () => {
    const a = new TestAgent(uniqueAgentId('a'));
    const b = new TestAgent(uniqueAgentId('b'));
    await registerAgent(h.app, a);
    await registerAgent(h.app, b);
    // A key on two agents cannot be registered any more (409 below); the fake holds it as data
    // from before that rule could.
    h.identity.agents.get(b.agentId)!.keys.push({ ...h.identity.agents.get(a.agentId)!.keys[0]!, primary: false });
    const url = `/v1/agents/${b.agentId}`;
    const madeForA = a.signedHeaders('GET', url);
    expectProblem(await h.app.inject({ method: 'GET', url, headers: { ...madeForA, 'x-agent-id': b.agentId } }), 403, 'agent_signature_invalid');
    // B's own key, and A's key signing as B (it is B's key too), still work.
    expect((await h.app.inject({ method: 'GET', url, headers: b.signedHeaders('GET', url) })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url, headers: new TestAgent(b.agentId, a.privateKey).signedHeaders('GET', url) })).statusCode).toBe(200);
  });

  it('should answer 409 pubkey_in_use when a registration names a key bound to another agent', async () => {
    const owner = new TestAgent(uniqueAgentId('owner'));
    await registerAgent(h.app, owner);
    const reuser = new TestAgent(uniqueAgentId('reuser'), owner.privateKey);
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: reuser.registrationBody() }), 409, 'pubkey_in_use');
    const lister = new TestAgent(uniqueAgentId('lister'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: lister.registrationBody(undefined, { pubkey_set: [owner.publicKey] }) }),
      409,
      'pubkey_in_use',
    );
  });
});

describe('unauthenticated requests count against the IP, never the agent they name', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('should leave the victim’s own budget untouched after 125 forged uploads naming it', async () => {
    const victim = new TestAgent(uniqueAgentId('victim'));
    await registerAgent(h.app, victim);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 125; i++) {
      const status = (await h.app.inject(forgedUpload(victim.agentId, ATTACKER_IP))).statusCode;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // 30 refused as forgeries, the rest refused before any work as the IP's failures piled up.
    expect(Object.fromEntries(statuses)).toEqual({ 403: 30, 429: 95 });
    expect(h.registry.artifacts.size).toBe(0);
    const url = `/v1/agents/${victim.agentId}`;
    const own = await h.app.inject({ method: 'GET', url, headers: victim.signedHeaders('GET', url) });
    expect(own.statusCode).toBe(200);
    expect(own.headers['ratelimit-limit']).toBe('120');
    expect(own.headers['ratelimit-remaining']).toBe('119');
  });

  it('should count a multipart upload against the IP until its signature verified, then against the agent', async () => {
    const uploader = new TestAgent(uniqueAgentId('uploader'));
    await registerAgent(h.app, uploader);
    const boundary = '----genuine0001';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\ntext/plain\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/artifacts',
      headers: { ...uploader.signedHeaders('POST', '/v1/artifacts', body), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode).toBe(201);
    // The hook saw an unauthenticated request (the IP's budget of 300)...
    expect(res.headers['ratelimit-limit']).toBe('300');
    // ...and the verified upload was then counted against the agent: its next request is its second.
    const url = `/v1/agents/${uploader.agentId}`;
    const next = await h.app.inject({ method: 'GET', url, headers: uploader.signedHeaders('GET', url) });
    expect(next.headers['ratelimit-remaining']).toBe('118');
  });
});
