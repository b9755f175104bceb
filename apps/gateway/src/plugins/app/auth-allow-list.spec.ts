import { PUBLIC_ROUTES, publicAccess, routeAuthMismatch } from './auth-allow-list';

// The one allow-list of routes reachable without credentials (DESIGN §3) and the start-up check
// that keeps route declarations and OpenAPI `security` in line with it.

const OPERATOR_OR_AGENT = [{ operatorToken: [] }, { agentId: [], agentTimestamp: [], agentNonce: [], agentSignature: [] }];

describe('PUBLIC_ROUTES', () => {
  it('should be exactly the routes DESIGN §3 makes public', () => {
    expect([...PUBLIC_ROUTES.keys()].sort()).toEqual(
      [
        'GET /health',
        'GET /skill.md',
        'GET /quickstart.md',
        'GET /openapi.json',
        'GET /.well-known/ucp',
        'GET /ui/casefile',
        'POST /ui/casefile/verify',
        'POST /v1/casefiles/verify',
        'POST /v1/commerce/ucp/webhooks/orders',
      ].sort(),
    );
  });
});

describe('publicAccess', () => {
  it.each([
    ['GET', '/health', 'public'],
    ['HEAD', '/health', 'public'],
    ['GET', '/api-reference', 'public'],
    ['GET', '/api-reference/static/swagger-ui.css', 'public'],
    ['POST', '/v1/casefiles/verify', 'optional'],
    ['POST', '/ui/casefile/verify', 'public'],
    ['POST', '/v1/commerce/ucp/webhooks/orders', 'public'],
  ])('should open %s %s as %s', (method, url, mode) => {
    expect(publicAccess(method, url)).toBe(mode);
  });

  it.each([
    ['GET', '/v1/objects'],
    ['GET', '/v1/objects/:object_id'],
    ['GET', '/v1/artifacts/:artifact_ref'],
    ['GET', '/v1/artifacts/:artifact_ref/envelope'],
    ['POST', '/v1/attestations/query'],
    ['GET', '/v1/party_alias_tokens/:object_id'],
    ['POST', '/health'],
    ['GET', '/v1/casefiles/verify'],
    ['POST', '/api-reference'],
    ['GET', '/api-referencex'],
    ['GET', undefined],
  ])('should keep %s %s closed', (method, url) => {
    expect(publicAccess(method, url)).toBeNull();
  });
});

describe('routeAuthMismatch', () => {
  it('should accept listed routes declaring their mode with anonymous security, and credentialed routes', () => {
    expect(routeAuthMismatch('GET', '/health', 'public', [], false)).toBeNull();
    expect(routeAuthMismatch('POST', '/v1/casefiles/verify', 'optional', [{}, ...OPERATOR_OR_AGENT], false)).toBeNull();
    expect(routeAuthMismatch('GET', '/ui/casefile', 'public', undefined, true)).toBeNull();
    expect(routeAuthMismatch('GET', '/v1/objects', 'operator_or_agent', OPERATOR_OR_AGENT, false)).toBeNull();
    expect(routeAuthMismatch('POST', '/v1/agents', undefined, [{ operatorToken: [] }], false)).toBeNull();
  });

  it('should refuse a route that declares itself open without being listed (default deny)', () => {
    expect(routeAuthMismatch('GET', '/v1/objects', 'optional', [{}, ...OPERATOR_OR_AGENT], false)).toMatch(/does not list it/);
    expect(routeAuthMismatch('GET', '/v1/secret', 'public', [], false)).toMatch(/does not list it/);
    expect(routeAuthMismatch('POST', '/v1/casefiles/verify', 'public', [], false)).toMatch(/lists it as 'optional'/);
  });

  it('should refuse a listed route that does not declare its mode', () => {
    expect(routeAuthMismatch('GET', '/health', 'operator', [{ operatorToken: [] }], false)).toMatch(/listed in PUBLIC_ROUTES as 'public'/);
  });

  it('should refuse OpenAPI security that contradicts the list, and documented routes without security', () => {
    expect(routeAuthMismatch('GET', '/v1/agents', 'operator_or_agent', [{}, ...OPERATOR_OR_AGENT], false)).toMatch(/allows anonymous/);
    expect(routeAuthMismatch('GET', '/v1/agents', 'operator_or_agent', [], false)).toMatch(/allows anonymous/);
    expect(routeAuthMismatch('GET', '/health', 'public', [{ operatorToken: [] }], false)).toMatch(/requires credentials/);
    expect(routeAuthMismatch('GET', '/v1/agents', 'operator_or_agent', undefined, false)).toMatch(/no OpenAPI security/);
  });
});
