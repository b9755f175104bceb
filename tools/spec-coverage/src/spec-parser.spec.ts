import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSpecEndpoints } from './spec-parser';

// The vendored copy of the team's spec (docs/spec); EXCHANGE_SPEC overrides it.
const specPath = process.env.EXCHANGE_SPEC ?? path.resolve(__dirname, '../../../docs/spec/exchange-spec.md');

describe('parseSpecEndpoints on the exchange spec', () => {
  const areas = () => {
    if (!fs.existsSync(specPath)) throw new Error(`spec not found at ${specPath} (set EXCHANGE_SPEC)`);
    return parseSpecEndpoints(fs.readFileSync(specPath, 'utf8'));
  };

  it('should find every area with the number of rows counted by hand', () => {
    const counts = Object.fromEntries(areas().map((a) => [a.name, a.endpoints.length]));
    expect(counts).toEqual({
      Agents: 5,
      Contracts: 7,
      Listings: 3,
      Offers: 4,
      Results: 3,
      Disputes: 4,
      Verification: 7,
      'Reputation and recommendations': 4,
      Templates: 2,
      'Coordination threads': 4,
      Wallets: 15,
      'Commerce protocol': 20,
      'Post-purchase': 4,
      Workflows: 9,
      'Billing (operator only)': 4,
      Metering: 4,
      Gateway: 3,
      'Registry objects': 3,
      Artifacts: 7,
      Mandates: 5,
      Fixtures: 2,
      'Attestations, receipts and casefiles': 7,
      'Aliases and identity reveals': 4,
      Telemetry: 12,
      'Market integrity, price index, metrics': 7,
      'Health and self-description': 5,
    });
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(154);
  });

  it('should prefix Wallets rows with /v1/wallets/{agent_id}, "(none)" being the prefix itself', () => {
    const wallets = areas().find((a) => a.name === 'Wallets')!.endpoints;
    expect(wallets[0]).toMatchObject({ method: 'GET', path: '/v1/wallets/{agent_id}' });
    expect(wallets.map((e) => `${e.method} ${e.path}`)).toContain('POST /v1/wallets/{agent_id}/holds/{hold_id}/consume');
    expect(wallets.every((e) => e.path.startsWith('/v1/wallets/{agent_id}'))).toBe(true);
  });

  it('should read method, path and purpose of a row', () => {
    expect(areas()[0].endpoints[3]).toEqual({
      method: 'POST',
      path: '/v1/agents/{agent_id}/identity_level',
      purpose: 'Change identity level (operator).',
    });
    expect(areas().find((a) => a.name === 'Mandates')!.endpoints.map((e) => e.method)).toEqual(['POST', 'GET', 'GET', 'PUT', 'GET']);
  });
});

describe('parseSpecEndpoints', () => {
  it('should only read tables inside the Endpoints section', () => {
    const md = [
      '## 2. Resources',
      '### Agent',
      '| GET | /v1/not-an-endpoint | no |',
      '## 4. Endpoints',
      '### Things',
      '| Method | Path | Purpose |',
      '|---|---|---|',
      '| GET | /v1/things | List. |',
      '### Boxes',
      'All paths start with /v1/boxes/{box_id}.',
      '| Method | Path suffix | Purpose |',
      '| GET | (none) | Read. |',
      '| POST | /open | Open. |',
      '## 5. Authentication',
      '| GET | /v1/after | no |',
    ].join('\n');
    expect(parseSpecEndpoints(md)).toEqual([
      { name: 'Things', endpoints: [{ method: 'GET', path: '/v1/things', purpose: 'List.' }] },
      {
        name: 'Boxes',
        endpoints: [
          { method: 'GET', path: '/v1/boxes/{box_id}', purpose: 'Read.' },
          { method: 'POST', path: '/v1/boxes/{box_id}/open', purpose: 'Open.' },
        ],
      },
    ]);
  });

  it('should fail without an Endpoints section', () => {
    expect(() => parseSpecEndpoints('# nothing\n')).toThrow('Endpoints');
  });
});
