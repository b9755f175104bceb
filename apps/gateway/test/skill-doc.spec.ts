import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { publicKeyFromPrivate, signCanonical, toBase64 } from '@exchange/crypto';
import { registerAgent, startHarness, TestAgent, type Harness } from './harness';

// /skill.md and /quickstart.md. The worked example of skill.md is checked independently of our
// crypto library, with node:crypto only: every value must be real.

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function canonical(obj: Record<string, string>): string {
  return `{${Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`).join(',')}}`;
}

let h: Harness;
let skill: string;

beforeAll(async () => {
  h = await startHarness();
  const res = await h.app.inject({ method: 'GET', url: '/skill.md', headers: { host: 'exchange.example:8080' } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
  skill = res.body;
});

afterAll(async () => {
  await h.close();
});

function exampleValues(doc: string): Record<string, string> {
  const block = /<!-- worked-example:start -->\s*```text\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('worked example block not found');
  return Object.fromEntries(
    block[1]!
      .trim()
      .split('\n')
      .map((line) => {
        const m = /^([a-z0-9_]+):\s+(.+)$/.exec(line.trim());
        if (!m) throw new Error(`bad example line: ${line}`);
        return [m[1]!, m[2]!];
      }),
  );
}

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

async function registerExample(harness: Harness, v: Record<string, string>) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/agents',
    headers: { authorization: 'Bearer test-operator-token-0123456789' },
    payload: {
      agent_id: v['agent_id'],
      primary_pubkey: v['public_key'],
      pubkey_set: [],
      identity_level: 'SANDBOX_UNVERIFIED',
      proof_nonce: v['proof_nonce'],
      proof_signature: v['proof_signature'],
    },
  });
}

describe('GET /skill.md wallet section', () => {
  it('should explain idempotency keys, replays, caps and receipts', () => {
    for (const text of [
      '## 6. Your wallet',
      'Idempotency-Key',
      'Idempotent-Replayed: true',
      'idempotency_key_reused',
      'idempotency_in_progress',
      'faucet_cap_exceeded',
      'GET /v1/receipts/{receipt_id}',
    ]) {
      expect(skill).toContain(text);
    }
  });

  it('should give receipt verification code that accepts an exchange-signed receipt and rejects a changed one', () => {
    const block = /<!-- receipt-verify:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    const verifyReceipt = new Function('require', `${block![1]}\nreturn verifyReceipt;`)(require) as (r: object, key: string) => boolean;
    // Signed with the exchange's own library (canonicalize + @noble/ed25519), not with the snippet's code.
    const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
    const exchangeKey = toBase64(publicKeyFromPrivate(seed));
    const unsigned = {
      receipt_id: 'rcpt_doc',
      kind: 'settlement',
      contract_id: 'ctr_doc',
      hold_id: 'hld_doc',
      payer: 'doc:agent:buyer',
      payee: 'doc:agent:seller',
      amount: '25',
      fee: '0.5',
      refunded_amount: '5',
      currency: 'CREDIT',
      journal_entry_ids: ['jrn_1', 'jrn_2'],
      settled_at: '2026-11-21T18:00:00.000Z',
      signer_public_key: exchangeKey,
    };
    const receipt = { ...unsigned, signature: signCanonical(unsigned, seed) };
    expect(verifyReceipt(receipt, exchangeKey)).toBe(true);
    expect(verifyReceipt({ ...receipt, fee: '0' }, exchangeKey)).toBe(false);
    expect(verifyReceipt(receipt, toBase64(publicKeyFromPrivate(Buffer.alloc(32, 9))))).toBe(false);
  });
});

describe('GET /skill.md contracts section', () => {
  it('should explain the roles, the routes and the market error codes', () => {
    for (const text of [
      '## 7. Contracts: buying and selling work',
      'POST | `/v1/contracts`',
      '/v1/contracts/{contract_id}/award/{offer_id}',
      '/v1/contracts/{contract_id}/receipt',
      'report_signature_invalid',
      'wallet_unavailable',
      'self_dealing',
    ]) {
      expect(skill).toContain(text);
    }
  });

  it('should give report signing code whose signature the exchange’s own canonical signer reproduces', () => {
    const block = /<!-- report-sign:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    type Report = { verifier_id: string; result_id: string; verdict: string; score: number; checks?: unknown[] };
    const signReport = new Function('require', `${block![1]}\nreturn signReport;`)(require) as (seed: Buffer, r: Report) => Report & { signature: string };
    const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
    const report = {
      verifier_id: 'doc:agent:verifier',
      result_id: 'res_doc',
      verdict: 'pass',
      score: 0.75,
      checks: [{ name: 'count', ok: true }, { name: 'style', ok: false, detail: 'two too long' }],
    };
    const body = signReport(seed, report);
    // ed25519 is deterministic: the market's signer (canonicalize + @noble/ed25519) gives the same bytes.
    expect(body).toEqual({ ...report, signature: signCanonical(report, seed) });
    expect(signReport(seed, { ...report, checks: undefined }).checks).toEqual([]);
  });
});

describe('GET /skill.md numbers in signed payloads', () => {
  it('should state the JCS number rule with examples and give the Python canonicalizer and report signer', () => {
    for (const text of ['`1.0` → `1`', '`0.90` → `0.9`', '`1e21` → `1e+21`', 'def jcs_number(x) -> str:', 'def canonical(v) -> str:', 'def sign_report(']) {
      expect(skill).toContain(text);
    }
    expect(skill).not.toContain('integers only');
  });
});

describe('GET /skill.md objects, artifacts and casefiles section', () => {
  it('should explain objects, artifacts, casefiles (with the offline CLI), aliases and the registry error codes', () => {
    for (const text of [
      '## 8. Objects, artifacts and casefiles',
      'POST /v1/attestations/query',
      'multipart/form-data',
      '451 artifact_removed',
      'POST /v1/casefiles/export',
      'npx exchange casefile verify casefile.tar.gz',
      '/ui/casefile',
      'POST /v1/party_alias_tokens/mint',
      'buyer_private: true',
      'object_signature_invalid',
      '`payload_too_large`',
      '| 451 | `artifact_removed`',
    ]) {
      expect(skill).toContain(text);
    }
    expect(skill).not.toMatch(/\{\{[A-Z_]+\}\}/);
  });

  it('should give object signing code whose signature the registry’s canonical signer reproduces', () => {
    const block = /<!-- object-sign:start -->\s*```js\n([\s\S]*?)```/.exec(skill);
    expect(block).not.toBeNull();
    type Body = { type: string; payload: unknown; signature: string; visibility?: string };
    const signObject = new Function('require', `${block![1]}\nreturn signObject;`)(require) as (seed: Buffer, type: string, payload: unknown, extra?: object) => Body;
    const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1));
    const payload = { subject_ref: 'sha256:' + 'ab'.repeat(32), claim: 'reviewed', z: [1, { b: 2, a: 'é' }] };
    const body = signObject(seed, 'attestation', payload, { visibility: 'public' });
    expect(body).toEqual({ type: 'attestation', payload, signature: signCanonical(payload, seed), visibility: 'public' });
  });
});

describe('GET /skill.md market insights, templates, fixtures, coordination and integrity section', () => {
  it('should name every issue-6 route, its rules and its error codes', () => {
    for (const text of [
      '## 9. Market insights, templates, fixtures, coordination and integrity',
      '/v1/reputation/{agent_id}',
      '/v1/reputation/verifier/{verifier_id}',
      '/v1/recommendations/contracts/{contract_id}/sellers',
      '/v1/recommendations/sellers/{seller_id}/contracts',
      '/v1/price-index',
      '/v1/task-tape',
      '/v1/contract-templates',
      '/v1/work-product-templates',
      '/v1/fixtures/sellers',
      '/v1/coordination/threads/{thread_id}/posts',
      '/v1/market-integrity/state',
      '/v1/market-integrity/kill-switches',
      '/v1/market-integrity/erroneous-clear',
      '/v1/market-integrity/audit',
      '/v1/contracts/{contract_id}/buyer-alias',
      '/v1/contracts/resale-lineage/review-decisions/{decision_ref}',
      'X-Request-Id',
      'market_halted',
      'kill_switch:<name>',
      'resale_review_pending',
      'GATEWAY_INTEGRITY_CACHE_MS',
      'corrects_receipt_id',
    ]) {
      expect(skill).toContain(text);
    }
  });

  it('should list only routes the gateway serves', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, object> };
    const section = skill.slice(skill.indexOf('## 9. Market insights'), skill.indexOf('## 10. Rate limits'));
    const paths = [...section.matchAll(/`(\/v1\/[a-z0-9/{}_-]+)/g)].map((m) => m[1]!.replace(/\/+$/, ''));
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) expect({ path, served: path in doc.paths }).toEqual({ path, served: true });
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
