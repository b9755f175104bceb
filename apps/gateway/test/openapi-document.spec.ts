import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startHarness, type Harness } from './harness';

// /openapi.json as a document: valid OpenAPI 3.1 by a maintained validator, shared schemas and
// headers factored into components (swagger.ts → openapi-components.ts), every $ref resolving.

let h: Harness;
let doc: any;
let text: string;

beforeAll(async () => {
  h = await startHarness();
  const res = await h.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  text = res.body;
  doc = JSON.parse(text);
});

afterAll(async () => {
  await h.close();
});

const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ path, method, op })));

function resolve(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<any>((node, part) => (node === undefined ? undefined : node[part.replace(/~1/g, '/').replace(/~0/g, '~')]), doc);
}

describe('/openapi.json document', () => {
  it('is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator', async () => {
    // The validator is an ES module: run it in its own node process.
    const script = `
      import { Validator } from '@seriousme/openapi-schema-validator';
      let input = '';
      for await (const chunk of process.stdin) input += chunk;
      const validator = new Validator();
      const result = await validator.validate(JSON.parse(input));
      console.log(JSON.stringify({ version: validator.version, valid: result.valid, errors: result.errors ?? null }));
    `;
    const child = promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), maxBuffer: 16 << 20 });
    child.child.stdin!.end(text);
    const { stdout } = await child;
    expect(JSON.parse(stdout)).toEqual({ version: '3.1', valid: true, errors: null });

    // And the validator does refuse a broken document (the check is not vacuous).
    const broken = { ...doc, paths: { '/x': { get: { responses: { 200: { content: 'nope' } } } } } };
    const again = promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), maxBuffer: 16 << 20 });
    again.child.stdin!.end(JSON.stringify(broken));
    expect(JSON.parse((await again).stdout).valid).toBe(false);
  });

  it('resolves every $ref', () => {
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(500);
    const dangling = [...new Set(refs)].filter((r) => !r.startsWith('#/') || resolve(r) === undefined);
    expect(dangling).toEqual([]);
  });

  it('names Money, the pages, Problem and each resource in components.schemas and refers to them', () => {
    const schemas = doc.components.schemas;
    for (const name of ['Problem', 'Money', 'Agent', 'AgentPage', 'Contract', 'ContractPage', 'Offer', 'Hold', 'Receipt', 'Artifact', 'Thread', 'RegistryObject']) {
      expect({ name, present: name in schemas }).toEqual({ name, present: true });
    }
    expect(schemas.ContractPage.properties.data.items).toEqual({ $ref: '#/components/schemas/Contract' });
    expect(schemas.Contract.properties.budget).toEqual(expect.objectContaining({ $ref: '#/components/schemas/Money' }));
    expect(schemas.Money.required).toEqual(['amount', 'currency']);
    // Request bodies stay whole, every constraint visible (tools/fuzz reads them without resolving $ref).
    const create = doc.paths['/v1/contracts'].post.requestBody.content['application/json'].schema;
    expect(create.properties.budget.properties.currency.format).toBe('currency');
    expect(JSON.stringify(create)).not.toContain('$ref');
    expect(doc.paths['/v1/contracts/{contract_id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Contract' });
    expect(doc.paths['/v1/agents'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AgentPage' });
    // Nothing big is left inline in a response: each resource is described once.
    const inline = operations().flatMap(({ path, method, op }) =>
      Object.entries<any>(op.responses).flatMap(([status, r]) =>
        Object.values<any>(r.content ?? {})
          .filter((m) => !m.schema?.$ref && JSON.stringify(m.schema ?? {}).length > 2000)
          .map(() => `${method} ${path} ${status}`),
      ),
    );
    expect(inline).toEqual([]);
  });

  it('declares the request headers: X-Request-Id everywhere, Idempotency-Key on /v1 POSTs, X-Agent-* where agents may sign', () => {
    expect(Object.keys(doc.components.parameters).sort()).toEqual(['IdempotencyKey', 'XAgentId', 'XAgentNonce', 'XAgentSignature', 'XAgentTimestamp', 'XRequestId']);
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
    for (const { path, method, op } of operations()) {
      const params = (op.parameters ?? []).map((p: any) => p.$ref ?? p.name);
      expect({ path, method, requestId: params.includes('#/components/parameters/XRequestId') }).toEqual({ path, method, requestId: true });
      if (method === 'post' && path.startsWith('/v1/')) expect({ path, params }).toEqual({ path, params: expect.arrayContaining(['#/components/parameters/IdempotencyKey']) });
      const signed = (op.security ?? []).some((s: object) => 'agentSignature' in s);
      for (const p of ['XAgentId', 'XAgentTimestamp', 'XAgentNonce', 'XAgentSignature']) {
        expect({ path, method, p, declared: params.includes(`#/components/parameters/${p}`) }).toEqual({ path, method, p, declared: signed });
      }
    }
    expect(doc.paths['/v1/agents/{agent_id}'].get.security).toEqual(expect.arrayContaining([expect.objectContaining({ agentSignature: [] })]));
  });

  it('declares the response headers: X-Request-Id, Retry-After and RateLimit-* on 429, Idempotent-Replayed on /v1 POST successes', () => {
    expect(Object.keys(doc.components.headers).sort()).toEqual(['Allow', 'IdempotentReplayed', 'RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'RetryAfter', 'XRequestId']);
    for (const { path, method, op } of operations()) {
      for (const [status, r] of Object.entries<any>(op.responses)) {
        expect({ path, method, status, id: r.headers?.['X-Request-Id'] }).toEqual({ path, method, status, id: { $ref: '#/components/headers/XRequestId' } });
        if (status === '429') {
          expect(Object.keys(r.headers)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
        }
        if (method === 'post' && path.startsWith('/v1/') && status.startsWith('2')) {
          expect({ path, status, replayed: r.headers['Idempotent-Replayed'] }).toEqual({ path, status, replayed: { $ref: '#/components/headers/IdempotentReplayed' } });
        }
      }
    }
  });

  it('declares the 405 answer (with Allow) that a known path gives for another method, and the gateway gives it', async () => {
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).toEqual({ $ref: '#/components/headers/Allow' });
    for (const { path, method, op } of operations()) {
      if (path === '/api-reference') continue;
      expect({ path, method, r405: op.responses['405']?.content }).toEqual({
        path,
        method,
        r405: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      });
    }
    const res = await h.app.inject({ method: 'DELETE', url: '/v1/contracts' });
    expect(res.statusCode).toBe(405);
    expect(res.json().code).toBe('method_not_allowed');
    expect(res.headers['allow']).toEqual(expect.stringContaining('GET'));
  });
});
