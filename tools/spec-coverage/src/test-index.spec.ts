import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isMentioned, readE2eTestFiles } from './test-index';

const file = (content: string) => [{ path: 'apps/exchange/test/e2e/agents.spec.ts', content }];

describe('isMentioned', () => {
  it('should find "<METHOD> <path>" in a test title with any parameter names', () => {
    const files = file(`describe('POST /v1/agents/{id}/identity_level', () => {});`);
    expect(isMentioned({ method: 'POST', path: '/v1/agents/{agent_id}/identity_level' }, files)).toBe(true);
  });

  it('should not count a longer path or another method as a mention', () => {
    const files = file(`it('GET /v1/agents/{agent_id} returns the agent', () => {}); it('POST /v1/agentsX', () => {});`);
    expect(isMentioned({ method: 'GET', path: '/v1/agents' }, files)).toBe(false);
    expect(isMentioned({ method: 'POST', path: '/v1/agents' }, files)).toBe(false);
    expect(isMentioned({ method: 'GET', path: '/v1/agents/{agent_id}' }, files)).toBe(true);
  });

  it('should accept a query string or the end of the title after the path', () => {
    expect(isMentioned({ method: 'GET', path: '/v1/agents' }, file(`it('GET /v1/agents?limit=2 pages', () => {})`))).toBe(true);
    expect(isMentioned({ method: 'GET', path: '/v1/agents' }, file(`describe("GET /v1/agents")`))).toBe(true);
    expect(isMentioned({ method: 'PUT', path: '/v1/mandates/{mandate_id}/autonomy' }, file(`it('XPUT /v1/mandates/{m}/autonomy')`))).toBe(false);
  });
});

describe('readE2eTestFiles', () => {
  it('should read spec files under apps/*/test only', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-coverage-'));
    try {
      fs.mkdirSync(path.join(root, 'apps/exchange/test/e2e'), { recursive: true });
      fs.mkdirSync(path.join(root, 'apps/identity/src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'apps/exchange/test/e2e/agents.spec.ts'), 'GET /v1/agents');
      fs.writeFileSync(path.join(root, 'apps/exchange/test/e2e/helpers.ts'), 'GET /v1/listings');
      fs.writeFileSync(path.join(root, 'apps/identity/src/agent.spec.ts'), 'GET /v1/contracts');
      expect(readE2eTestFiles(root)).toEqual([{ path: path.join('apps/exchange/test/e2e/agents.spec.ts'), content: 'GET /v1/agents' }]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
