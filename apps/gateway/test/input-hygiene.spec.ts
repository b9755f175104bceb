import { expectProblem, operator, startHarness, type Harness } from './harness';
import { postBody, sendRaw } from './raw-http';

// Input hygiene at the gateway, for every route (DESIGN §3, issue 12 findings 4–7, 13): NUL in any
// part, numbers beyond a 64-bit float, JSON nested deeper than 64, missing bodies, unbounded integers, and Fastify's and Node's
// own errors — all 4xx problem+json, nothing reaches a service.

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

const jsonHeaders = () => ({ ...operator(), 'content-type': 'application/json' });

describe('NUL in any string', () => {
  it('should refuse NUL in a body field with 400 validation_failed naming the field', async () => {
    const before = h.market.calls.length;
    const res = await h.app.inject({ method: 'POST', url: '/v1/coordination/threads', headers: jsonHeaders(), payload: JSON.stringify({ title: 'a\u0000b', tags: ['x'] }) });
    const problem = expectProblem(res, 400, 'validation_failed');
    expect(problem.errors).toEqual([{ pointer: '/title', message: 'must not contain the NUL character (U+0000)' }]);
    expect(problem.detail).toContain('body/title');
    expect(h.market.calls.length).toBe(before);
  });

  it('should refuse NUL in a query value and in a path parameter', async () => {
    const q = expectProblem(await h.app.inject({ method: 'GET', url: '/v1/listings?tag=%00', headers: operator() }), 400, 'validation_failed');
    expect(q.errors[0].pointer).toBe('/tag');
    expect(q.detail).toContain('query/tag');
    const p = expectProblem(await h.app.inject({ method: 'GET', url: '/v1/contracts/ctr_a%00b', headers: operator() }), 400, 'validation_failed');
    expect(p.detail).toContain('path/contract_id');
  });

  it('should refuse NUL inside a free-form payload, keys included', async () => {
    for (const payload of [{ x: ['ok', 'n\u0000'] }, { ['k\u0000']: 1 }]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/v1/objects',
        headers: jsonHeaders(),
        payload: JSON.stringify({ type: 't', payload, signer_agent_id: 'acme:agent:a', signature: 'A'.repeat(86) + '==', visibility: 'public' }),
      });
      expectProblem(res, 400, 'validation_failed');
    }
  });
});

describe('numbers beyond a 64-bit float', () => {
  it('should refuse 1e400 (parsed as Infinity) in a free-form payload with 400 validation_failed naming it, reaching no service', async () => {
    const before = h.registry.calls.length;
    const body = `{"type":"t","payload":[1,2,3,4,-1e400],"signer_agent_id":"acme:agent:a","signature":"${'A'.repeat(86)}==","visibility":"public"}`;
    const problem = expectProblem(await h.app.inject({ method: 'POST', url: '/v1/objects', headers: jsonHeaders(), payload: body }), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ pointer: '/payload/4', message: 'must be a number a 64-bit float can hold (within ±1.7976931348623157e308)' }]);
    expect(h.registry.calls.length).toBe(before);
  });
});

describe('arrays far past their maxItems', () => {
  it('should answer 400 naming the array once, from a bounded copy (120,000 items)', async () => {
    const body = { agent_id: 'acme:agent:buyer-1', description: 'x', merchants: Array.from({ length: 120_000 }, () => 'a'), budget: { amount: '1', currency: 'USD' }, expires_at: '2027-01-01T00:00:00Z' };
    const problem = expectProblem(await h.app.inject({ method: 'POST', url: '/v1/commerce/intents/create', headers: jsonHeaders(), payload: JSON.stringify(body) }), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ pointer: '/merchants', message: 'must not have more than 100 items' }]);
  });
});

describe('deep JSON', () => {
  it('should refuse a body nested 5,000 deep with 400 payload_too_deep, anonymous routes included', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/casefiles/verify', headers: { 'content-type': 'application/json' }, payload: `{"docket":${deep}}` }), 400, 'payload_too_deep');
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/objects', headers: jsonHeaders(), payload: `{"payload":${deep}}` }), 400, 'payload_too_deep');
    const arrays = '['.repeat(10_000) + ']'.repeat(10_000);
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/casefiles/verify', headers: { 'content-type': 'application/json' }, payload: `{"docket":${arrays}}` }), 400, 'payload_too_deep');
  });
});

describe('missing and empty bodies', () => {
  it('should answer 400 problem+json for a required body that is missing, empty or null', async () => {
    for (const [headers, payload] of [
      [operator(), undefined],
      [jsonHeaders(), ''],
      [jsonHeaders(), 'null'],
    ] as const) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/contracts', headers, ...(payload === undefined ? {} : { payload }) });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    }
  });
});

describe('integers beyond their proto type', () => {
  it('should refuse seller_share_bps 1.2e29 at the schema (no gRPC serialization failure)', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/disputes/dsp_x/resolve',
      headers: jsonHeaders(),
      payload: '{"outcome":"split","seller_share_bps":1.2e29,"rationale":"r"}',
    });
    expect(expectProblem(res, 400, 'validation_failed').errors[0].pointer).toBe('/seller_share_bps');
  });

  it('should bound every integer of every request schema in /openapi.json within a proto integer type', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const unbounded: string[] = [];
    const seen = new Set<unknown>();
    const walk = (schema: unknown, where: string): void => {
      if (typeof schema !== 'object' || schema === null || seen.has(schema)) return;
      seen.add(schema);
      const s = schema as Record<string, unknown>;
      if (typeof s.$ref === 'string') walk(doc.components?.schemas?.[s.$ref.split('/').pop() as string], where);
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (types.includes('integer')) {
        const min = s.minimum as number | undefined;
        const max = s.maximum as number | undefined;
        const fits = min !== undefined && max !== undefined && min >= -(2 ** 63) && max <= 2 ** 63 - 1 && Number.isSafeInteger(min) && Number.isSafeInteger(max);
        if (!fits) unbounded.push(where);
      }
      for (const [key, value] of Object.entries(s)) {
        if (key === 'examples' || key === 'example' || key === 'default') continue;
        if (key === 'properties') for (const [name, prop] of Object.entries(value as object)) walk(prop, `${where}/${name}`);
        else if (typeof value === 'object') walk(value, where);
      }
    };
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) walk(p.schema, `${method} ${path} ${p.in}:${p.name}`);
        for (const content of Object.values(op.requestBody?.content ?? {})) walk((content as any).schema, `${method} ${path} body`);
      }
    }
    expect(unbounded).toEqual([]);
  });
});

/** The harness's gateway on a real port (once), for what inject() never goes through. */
async function listening(): Promise<number> {
  if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
  return (h.app.server.address() as { port: number }).port;
}

describe("Fastify's and Node's own errors are problem+json", () => {
  it('should answer bad percent-encoding in the path with 400 problem+json', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents/%E0%A4%A', headers: operator() }), 400, 'bad_url');
  });

  it('should answer a path parameter over maxParamLength with 414 problem+json', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: `/v1/agents/${'a'.repeat(600)}`, headers: operator() }), 414, 'uri_too_long');
  });

  it('should answer headers over the size limit (431) and unparsable HTTP (400) with problem+json on the socket', async () => {
    const port = await listening();
    const raw = async (request: string) => (await sendRaw(port, request)).answer;
    const big = await raw(`GET /v1/agents HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(big).toContain('Content-Type: application/problem+json');
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 431, code: 'headers_too_large' });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('should deliver the 413 to a client still sending an oversized body, then close (lingering close; the fuzzer lost one)', async () => {
    const port = await listening();
    const before = h.market.calls.length;
    for (let i = 0; i < 20; i++) {
      const out = await postBody(port, '/v1/coordination/threads', 3_000_000, { headers: operator() });
      expect(out.answer.split('\r\n', 1)[0]).toBe('HTTP/1.1 413 Payload Too Large');
      expect(JSON.parse(out.answer.slice(out.answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 413, code: 'payload_too_large' });
      expect(out.ended).toBe(true);
    }
    expect(h.market.calls.length).toBe(before);
  });

  it('should not run requests pipelined behind an oversized body: the connection is closing', async () => {
    const port = await listening();
    const before = h.wallet.calls.length;
    const faucet = JSON.stringify({ amount: '1', category: 'pipelined', idempotency_key: 'pipelined-1' });
    const next = `POST /v1/wallets/ns:agent:x/faucet HTTP/1.1\r\nHost: x\r\nAuthorization: ${operator().authorization}\r\nContent-Type: application/json\r\nContent-Length: ${faucet.length}\r\n\r\n${faucet}`;
    // The same request alone is run: what follows the oversized body would be, but for the drop.
    expect((await h.app.inject({ method: 'POST', url: '/v1/wallets/ns:agent:x/faucet', headers: jsonHeaders(), payload: faucet })).statusCode).toBeLessThan(300);
    const ran = h.wallet.calls.length;
    expect(ran).toBeGreaterThan(before);
    const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const head = `POST /v1/coordination/threads HTTP/1.1\r\nHost: x\r\nAuthorization: ${operator().authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { answer } = await sendRaw(port, Buffer.concat([Buffer.from(head), body, Buffer.from(next.repeat(20))]), { end: true });
    expect(answer.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 413']);
    expect(h.wallet.calls.length).toBe(ran);
  });
});
