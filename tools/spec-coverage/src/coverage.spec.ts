import { computeCoverage } from './coverage';
import { formatReport } from './format';
import { openApiEndpoints } from './openapi';
import type { SpecArea } from './spec-parser';

const areas: SpecArea[] = [
  {
    name: 'Agents',
    endpoints: [
      { method: 'POST', path: '/v1/agents', purpose: '' },
      { method: 'GET', path: '/v1/agents/{agent_id}', purpose: '' },
      { method: 'GET', path: '/v1/agents/{agent_id}/identity_transitions', purpose: '' },
    ],
  },
  {
    name: 'Verification',
    endpoints: [{ method: 'GET', path: '/v1/contracts/{contract_id}/verification', purpose: '' }],
  },
  {
    name: 'Contracts',
    endpoints: [{ method: 'GET', path: '/v1/contracts/{contract_id}/verification', purpose: '' }],
  },
];

const openapi = {
  openapi: '3.1.0',
  paths: {
    '/v1/agents': { post: {}, head: {} },
    '/v1/agents/{id}': { get: {}, parameters: [] },
    '/v1/agents/{id}/freeze': { post: {} },
    '/v1/contracts/{id}/verification': { get: {} },
  },
};

describe('openApiEndpoints', () => {
  it('should list method and path of every operation, ignoring HEAD and path-level fields', () => {
    expect(openApiEndpoints(openapi)).toEqual([
      { method: 'POST', path: '/v1/agents' },
      { method: 'GET', path: '/v1/agents/{id}' },
      { method: 'POST', path: '/v1/agents/{id}/freeze' },
      { method: 'GET', path: '/v1/contracts/{id}/verification' },
    ]);
  });

  it('should refuse a document without paths', () => {
    expect(() => openApiEndpoints({ openapi: '3.1.0' })).toThrow('paths');
  });
});

describe('computeCoverage', () => {
  const tested = new Set(['POST /v1/agents']);
  const report = computeCoverage(areas, openApiEndpoints(openapi), (e) => tested.has(`${e.method} ${e.path}`));

  it('should count implemented endpoints per area and list the missing ones', () => {
    expect(report.areas.map((a) => [a.name, a.implemented, a.total])).toEqual([
      ['Agents', 2, 3],
      ['Verification', 1, 1],
      ['Contracts', 1, 1],
    ]);
    expect(report.areas[0].missing.map((e) => e.path)).toEqual(['/v1/agents/{agent_id}/identity_transitions']);
  });

  it('should list implemented endpoints without a test', () => {
    expect(report.areas[0].untested.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/agents/{agent_id}']);
  });

  it('should count an endpoint listed under two areas once in the totals', () => {
    expect([report.implemented, report.tested, report.total]).toEqual([3, 1, 4]);
  });

  it('should report routes the spec does not describe', () => {
    expect(report.extraRoutes).toEqual([{ method: 'POST', path: '/v1/agents/{id}/freeze' }]);
  });

  it('should format areas, missing, untested, extra routes and a total line', () => {
    const text = formatReport(report);
    expect(text).toMatch(/^Agents\s+2\/3/m);
    expect(text).toContain('missing  GET /v1/agents/{agent_id}/identity_transitions');
    expect(text).toContain('untested  GET /v1/agents/{agent_id}  (Agents)');
    expect(text).toContain('extra  POST /v1/agents/{id}/freeze');
    expect(text).toMatch(/TOTAL {2}implemented 3\/4, with e2e test 1\/4$/);
  });
});
