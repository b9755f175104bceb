import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { registerAgent, startHarness, TestAgent } from './harness';
import { canonical, exampleValues, h, PKCS8_ED25519_PREFIX, registerExample, skill, useSkillDocHarness } from './skill-doc-setup';

// /skill.md and /quickstart.md. The worked example of skill.md is checked independently of our
// crypto library, with node:crypto only: every value must be real. The per-area sections of
// skill.md: skill-doc-sections.spec.ts.

useSkillDocHarness();

describe('GET /skill.md', () => {
  it('should have a worked example whose every value node:crypto reproduces', () => {
    const v = exampleValues(skill);
    const seed = Buffer.from(v['seed_hex']!, 'hex');
    expect(seed).toEqual(Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)));
    const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const publicKey = createPublicKey(privateKey);
    const spki = publicKey.export({ format: 'der', type: 'spki' });
    expect(v['public_key']).toBe(spki.subarray(spki.length - 32).toString('base64'));

    const proof = canonical({ agent_id: v['agent_id']!, primary_pubkey: v['public_key']!, proof_nonce: v['proof_nonce']! });
    expect(v['proof_canonical']).toBe(proof);
    expect(verify(null, Buffer.from(proof), publicKey, Buffer.from(v['proof_signature']!, 'base64'))).toBe(true);
    expect(sign(null, Buffer.from(proof), privateKey).toString('base64')).toBe(v['proof_signature']);

    expect(v['request_body_sha256']).toBe(createHash('sha256').update('').digest('hex'));
    const request = canonical({
      agent_id: v['agent_id']!,
      method: v['request_method']!,
      path: v['request_path']!,
      timestamp: v['request_timestamp']!,
      nonce: v['request_nonce']!,
      body_sha256: v['request_body_sha256']!,
    });
    expect(v['request_canonical']).toBe(request);
    expect(sign(null, Buffer.from(request), privateKey).toString('base64')).toBe(v['request_signature']);
    expect(verify(null, Buffer.from(request), publicKey, Buffer.from(v['request_signature']!, 'base64'))).toBe(true);
  });

  it('should use the example values consistently in the curl commands', () => {
    const v = exampleValues(skill);
    expect(skill).toContain(`"proof_signature": "${v['proof_signature']}"`);
    expect(skill).toContain(`"primary_pubkey": "${v['public_key']}"`);
    expect(skill).toContain(`X-Agent-Signature: ${v['request_signature']}`);
    expect(skill).toContain(`X-Agent-Timestamp: ${v['request_timestamp']}`);
    expect(skill).toContain(`X-Agent-Nonce: ${v['request_nonce']}`);
  });

  it('should have a worked example request that a gateway whose clock reads its timestamp accepts once', async () => {
    const v = exampleValues(skill);
    const atExample = await startHarness({ now: () => Number(v['request_timestamp']) * 1000 });
    try {
      await registerExample(atExample, v);
      const headers = {
        'x-agent-id': v['agent_id']!,
        'x-agent-timestamp': v['request_timestamp']!,
        'x-agent-nonce': v['request_nonce']!,
        'x-agent-signature': v['request_signature']!,
      };
      const res = await atExample.app.inject({ method: v['request_method'] as 'GET', url: v['request_path']!, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().agent_id).toBe(v['agent_id']);
      // The same request again is a replay.
      const again = await atExample.app.inject({ method: v['request_method'] as 'GET', url: v['request_path']!, headers });
      expect({ status: again.statusCode, code: again.json().code }).toEqual({ status: 401, code: 'agent_nonce_reused' });
    } finally {
      await atExample.close();
    }
  });

  it('should give request signing code (section 5) whose headers a live gateway accepts, GET and POST', async () => {
    const block = /<!-- request-sign:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    type Sign = (seed: Buffer, agentId: string, method: string, path: string, body?: string) => Record<string, string>;
    const signedHeaders = new Function('require', `${block![1]}\nreturn signedHeaders;`)(require) as Sign;
    const seed = randomBytes(32);
    const agentId = `doc-${randomBytes(3).toString('hex')}:agent:signer`;
    await registerAgent(h.app, new TestAgent(agentId, seed));
    const path = `/v1/agents/${agentId}`;
    const get = signedHeaders(seed, agentId, 'GET', path);
    expect(Object.keys(get)).toEqual(['X-Agent-Id', 'X-Agent-Timestamp', 'X-Agent-Nonce', 'X-Agent-Signature']);
    expect(get['X-Agent-Nonce']).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await h.app.inject({ method: 'GET', url: path, headers: get })).statusCode).toBe(200);
    expect(signedHeaders(seed, agentId, 'GET', path)['X-Agent-Nonce']).not.toBe(get['X-Agent-Nonce']);
    const faucet = `/v1/wallets/${agentId}/faucet`;
    const body = JSON.stringify({ amount: '5', category: 'doc', idempotency_key: 'doc-1' });
    const post = await h.app.inject({
      method: 'POST',
      url: faucet,
      headers: { 'content-type': 'application/json', ...signedHeaders(seed, agentId, 'POST', faucet, body) },
      payload: body,
    });
    expect(post.statusCode).toBe(201);
  });

  it('should substitute the exchange public key, base URL and rate limits at serve time', () => {
    expect(skill).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(skill).toContain('ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=');
    expect(skill).toContain('curl -sS -X POST http://exchange.example:8080/v1/agents');
    expect(skill).toContain('| SANDBOX_UNVERIFIED | 120 |');
    expect(skill).toContain('| MAINNET_INSTITUTIONAL | 10000 |');
  });

  it('should be accepted by a live gateway: the example agent registers with the documented body', async () => {
    const v = exampleValues(skill);
    expect((await registerExample(h, v)).statusCode).toBe(201);
  });
});

describe('GET /quickstart.md', () => {
  it('should walk from npm ci && npm start to a registered agent in five steps', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/quickstart.md' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    const steps = res.body.match(/^## \d\. .+$/gm) ?? [];
    expect(steps).toHaveLength(5);
    expect(res.body).toContain('npm ci && npm start');
    expect(res.body).toContain('POST $EXCHANGE_URL/v1/agents');
    expect(res.body).toContain('## Then: sandbox credits in your wallet');
    expect(res.body).toContain('/v1/wallets/$AGENT_ID/faucet');
    expect(res.body).toContain('## Then: a contract from start to settlement');
    expect(res.body).toContain('npx tsx libs/sdk/examples/buy-and-sell.ts');
    expect(res.body).toContain('## Then: templates, market data and coordination');
    expect(res.body).toContain('## Then: market integrity (operators)');
    expect(res.body).not.toMatch(/\{\{[A-Z_]+\}\}/);
  });
});
