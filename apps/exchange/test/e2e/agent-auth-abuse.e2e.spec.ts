import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { expectProblem, http, type HttpResult } from './http';
import { MarketHttp } from './market-http';
import { RawAgent, uniqueAgentId } from './raw-agent';
import { bootStack, type Stack } from './stack';

// Issue 12 findings 9–12 against the whole exchange, signed without our SDK (raw-agent.ts):
// replayed signatures, signatures bound to their agent, one key per agent, forged requests that
// must not spend their victim's budget, and operator-token guessing limited per IP. Attackers
// connect from other loopback addresses (127.0.0.2, .3) so the per-IP counters are theirs.

let stack: Stack;
let m: MarketHttp;
const VICTIM_LIMIT = 20;

beforeAll(async () => {
  stack = await bootStack({ env: { RATE_LIMIT_SANDBOX_UNVERIFIED: String(VICTIM_LIMIT) } });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

/** One HTTP request from a chosen local address (the client IP the gateway sees). */
function from(localAddress: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<HttpResult> {
  const url = new URL(path, stack.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: text && (res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function contractsOf(buyer: RawAgent): Promise<string[]> {
  const res = await m.expectStatus(m.op('GET', `/v1/contracts?buyer_id=${encodeURIComponent(buyer.agentId)}`), 200);
  return (res.data as Array<{ contract_id: string }>).map((c) => c.contract_id);
}

describe('replayed signatures (finding 9)', () => {
  it('refuses an identical signed POST /v1/contracts with 401 agent_nonce_reused and creates one contract only', async () => {
    const buyer = await m.newAgent('replay-buyer');
    const body = JSON.stringify(m.contractBody({ title: 'Replay me' }));
    const headers = { ...buyer.signedHeaders('POST', '/v1/contracts', body), 'content-type': 'application/json' };
    const first = await http(stack.baseUrl, 'POST', '/v1/contracts', { headers, rawBody: body });
    expect(first.status).toBe(201);
    expectProblem(await http(stack.baseUrl, 'POST', '/v1/contracts', { headers, rawBody: body }), 401, 'agent_nonce_reused');
    expect(await contractsOf(buyer)).toEqual([first.body.contract_id]);
    // Signed again (new nonce): a second contract, as the agent meant.
    expect((await m.createContract(buyer, { title: 'Replay me' })).status).toBe(201);
    expect(await contractsOf(buyer)).toHaveLength(2);
  });
});

describe('signatures bound to one agent, one agent per key (finding 10)', () => {
  it('refuses to register a key another agent holds (primary or pubkey_set): 409 pubkey_in_use', async () => {
    const owner = await m.newAgent('key-owner');
    const thief = new RawAgent(uniqueAgentId('key-thief'), owner.seed);
    const asPrimary = await m.op('POST', '/v1/agents', thief.registrationBody());
    expect(expectProblem(asPrimary, 409, 'pubkey_in_use').pointer).toBe('/primary_pubkey');
    const lister = new RawAgent(uniqueAgentId('key-lister'));
    const asExtra = await m.op('POST', '/v1/agents', { ...lister.registrationBody(), pubkey_set: [owner.publicKey] });
    expect(expectProblem(asExtra, 409, 'pubkey_in_use').pointer).toBe('/pubkey_set/0');
    expectProblem(await m.op('GET', `/v1/agents/${thief.agentId}`), 404, 'agent_not_found');
    // With keys of their own both register.
    await m.register(lister);
  });

  it('refuses a signature made for agent A presented with X-Agent-Id B', async () => {
    const a = await m.newAgent('bound-a');
    const b = await m.newAgent('bound-b');
    const path = `/v1/agents/${b.agentId}`;
    expectProblem(await http(stack.baseUrl, 'GET', path, { headers: { ...a.signedHeaders('GET', path), 'x-agent-id': b.agentId } }), 403, 'agent_signature_invalid');
    expect((await http(stack.baseUrl, 'GET', path, { headers: b.signedHeaders('GET', path) })).status).toBe(200);
  });
});

describe('forged requests never spend the budget of the agent they name (finding 11)', () => {
  it('leaves the victim below its limit after more forged multipart uploads naming it than its limit', async () => {
    const victim = await m.newAgent('budget-victim');
    const forger = new RawAgent(victim.agentId); // the victim's id, another key
    const statuses: number[] = [];
    for (let i = 0; i < VICTIM_LIMIT + 5; i++) {
      const boundary = `----forged${randomBytes(6).toString('hex')}`;
      const body = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\ntext/plain\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: text/plain\r\n\r\nforged ${i}\r\n--${boundary}--\r\n`,
      );
      const headers = { ...forger.signedHeaders('POST', '/v1/artifacts', body), 'content-type': `multipart/form-data; boundary=${boundary}` };
      statuses.push((await from('127.0.0.2', 'POST', '/v1/artifacts', headers, body)).status);
    }
    expect(new Set(statuses)).toEqual(new Set([403]));
    const path = `/v1/agents/${victim.agentId}`;
    const own = await http(stack.baseUrl, 'GET', path, { headers: victim.signedHeaders('GET', path) });
    expect(own.status).toBe(200);
    expect(own.headers.get('ratelimit-limit')).toBe(String(VICTIM_LIMIT));
    // Its first request of the window: none of the forged ones was counted against it.
    expect(own.headers.get('ratelimit-remaining')).toBe(String(VICTIM_LIMIT - 1));
  });
});

describe('failed authentication limited per IP (finding 12)', () => {
  it('answers the 31st wrong operator token from one IP 429 with Retry-After, and only that IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await from('127.0.0.3', 'GET', '/v1/agents', { authorization: `Bearer guess-${randomBytes(8).toString('hex')}` })).status);
    }
    expect(new Set(statuses)).toEqual(new Set([403]));
    const limited = await from('127.0.0.3', 'GET', '/v1/agents', { authorization: 'Bearer guess-31' });
    expectProblem(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The right token from that IP waits as well (refused before the compare); other IPs do not.
    expectProblem(await from('127.0.0.3', 'GET', '/v1/agents', { authorization: `Bearer ${stack.operatorToken}` }), 429, 'rate_limited');
    expect((await m.op('GET', '/v1/agents')).status).toBe(200);
  });
});
