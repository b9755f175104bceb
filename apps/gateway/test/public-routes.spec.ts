import { gzipSync } from 'node:zlib';
import { PUBLIC_ROUTES } from '../src/plugins/app/auth-allow-list';
import { expectProblem, startHarness, type Harness } from './harness';

// Issue 13 item 7: only the routes DESIGN §3 lists answer without credentials. This walks every
// operation of /openapi.json: each other one must be 401 unauthenticated (with WWW-Authenticate)
// for a request with no credentials, and its OpenAPI `security` must require credentials.

let h: Harness;
let doc: { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };

beforeAll(async () => {
  // Every anonymous request to a closed route counts as a failed authentication of this IP.
  h = await startHarness({ env: { RATE_LIMIT_AUTH_FAILURES: '100000', RATE_LIMIT_ANONYMOUS: '100000' } });
  doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});

afterAll(async () => {
  await h.close();
});

/** `{agent_id}` → a well-formed agent id, any other parameter → a plausible token. */
const concrete = (path: string) => path.replace(/\{agent_id\}/g, 'x:agent:y').replace(/\{[^}]+\}/g, 'sample');

function operations(): Array<[string, string]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), path] as [string, string]));
}

const isPublic = (method: string, path: string) => PUBLIC_ROUTES.has(`${method} ${path}`) || path === '/api-reference';

describe('every operation of /openapi.json', () => {
  it('should cover the document (more than 100 operations, the public ones among them)', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    const documentedPublic = ops.filter(([m, p]) => isPublic(m, p)).map(([m, p]) => `${m} ${p}`);
    expect(documentedPublic.sort()).toEqual(
      [
        'GET /health',
        'GET /skill.md',
        'GET /quickstart.md',
        'GET /openapi.json',
        'GET /api-reference',
        'GET /.well-known/ucp',
        'POST /ui/casefile/verify',
        'POST /v1/casefiles/verify',
        'POST /v1/commerce/ucp/webhooks/orders',
      ].sort(),
    );
  });

  it('should answer 401 unauthenticated to every non-public operation called without credentials', async () => {
    const wrong: string[] = [];
    for (const [method, path] of operations()) {
      if (isPublic(method, path)) continue;
      const res = await h.app.inject({
        method: method as 'GET',
        url: concrete(path),
        ...(method === 'GET' ? {} : { payload: {}, headers: { 'content-type': 'application/json' } }),
      });
      const body = String(res.headers['content-type'] ?? '').includes('json') ? res.json() : {};
      if (res.statusCode !== 401 || body.code !== 'unauthenticated' || res.headers['www-authenticate'] !== 'Bearer realm="agent-exchange"') {
        wrong.push(`${method} ${path} → ${res.statusCode} ${body.code ?? ''}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should require credentials in the OpenAPI security of every non-public operation, and offer anonymous access on the public ones', () => {
    const wrong: string[] = [];
    for (const [method, path] of operations()) {
      const security = doc.paths[path][method.toLowerCase()].security;
      const anonymous = Array.isArray(security) && (security.length === 0 || security.some((r) => Object.keys(r).length === 0));
      if (!Array.isArray(security) || anonymous !== isPublic(method, path)) wrong.push(`${method} ${path}: ${JSON.stringify(security)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('the public routes', () => {
  it.each(['/health', '/skill.md', '/quickstart.md', '/openapi.json', '/ui/casefile'])('GET %s should answer without credentials', async (url) => {
    const res = await h.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
  });

  it('GET /api-reference should answer without credentials', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api-reference' });
    expect([200, 302]).toContain(res.statusCode);
  });

  it('POST /v1/casefiles/verify and /ui/casefile/verify should verify without credentials (an unreadable archive is 400, not 401)', async () => {
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/casefiles/verify', payload: { archive_base64: Buffer.from('not gzip').toString('base64') } }),
      400,
      'casefile_unreadable',
    );
    const res = await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: gzipSync('not a tar') });
    expect(res.statusCode).not.toBe(401);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('reads that used to be anonymous (issue 13)', () => {
  it.each([
    ['GET', '/v1/objects'],
    ['GET', `/v1/objects/sha256:${'a'.repeat(64)}`],
    ['GET', `/v1/artifacts/sha256:${'a'.repeat(64)}`],
    ['GET', `/v1/artifacts/sha256:${'a'.repeat(64)}/envelope`],
    ['POST', '/v1/attestations/query'],
    ['GET', `/v1/party_alias_tokens/sha256:${'a'.repeat(64)}`],
  ])('%s %s should be 401 without credentials and never reach the registry', async (method, url) => {
    const before = h.registry.calls.length;
    const res = await h.app.inject({ method: method as 'GET', url, ...(method === 'POST' ? { payload: {} } : {}) });
    expectProblem(res, 401, 'unauthenticated');
    expect(h.registry.calls.length).toBe(before);
  });
});
