import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSigningKey, shoppingRestEndpoint } from './profile';
import type { UcpProfile, UcpServiceEntry } from './profile-types';

const business: UcpProfile = JSON.parse(readFileSync(join(__dirname, '../test/fixtures/business-profile.json'), 'utf8'));
const withServices = (services: UcpServiceEntry[]): UcpProfile => ({ ucp: { version: '2026-04-08', services: { 'dev.ucp.shopping': services } } });

describe('shoppingRestEndpoint', () => {
  it('is the rest binding of dev.ucp.shopping, without trailing slash (not the mcp one)', () => {
    expect(shoppingRestEndpoint(business)).toBe('https://flowers.example/ucp/v1');
  });

  it('picks the newest rest binding, or the one of the asked version', () => {
    const profile = withServices([
      { version: '2026-01-23', transport: 'rest', endpoint: 'https://shop.example/old' },
      { version: '2026-04-08', transport: 'rest', endpoint: 'https://shop.example/new//' },
      { version: '2026-09-01', transport: 'mcp', endpoint: 'https://shop.example/mcp' },
    ]);
    expect(shoppingRestEndpoint(profile)).toBe('https://shop.example/new');
    expect(shoppingRestEndpoint(profile, '2026-01-23')).toBe('https://shop.example/old');
    expect(shoppingRestEndpoint(profile, '2026-09-01')).toBeUndefined();
  });

  it('is undefined without a rest binding or without the shopping service', () => {
    expect(shoppingRestEndpoint(withServices([{ version: '2026-04-08', transport: 'embedded' }]))).toBeUndefined();
    expect(shoppingRestEndpoint({ ucp: { version: '2026-04-08' } })).toBeUndefined();
  });
});

describe('findSigningKey', () => {
  it('finds the JWK by kid', () => {
    expect(findSigningKey(business, 'flowers-2026-04')).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
  });

  it('is undefined for an unknown kid or a profile without keys', () => {
    expect(findSigningKey(business, 'other')).toBeUndefined();
    expect(findSigningKey({ ucp: { version: '2026-04-08' } }, 'flowers-2026-04')).toBeUndefined();
  });
});
