import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { negotiate } from './negotiation';
import type { UcpCapabilityEntry, UcpProfile } from './profile-types';

const V1 = '2026-01-23';
const V2 = '2026-04-08';
const CHECKOUT = 'dev.ucp.shopping.checkout';
const CART = 'dev.ucp.shopping.cart';
const DISCOUNT = 'dev.ucp.shopping.discount';
const FULFILLMENT = 'dev.ucp.shopping.fulfillment';

const fixture = (name: string): UcpProfile => JSON.parse(readFileSync(join(__dirname, '../test/fixtures', name), 'utf8'));

function profile(capabilities: Record<string, UcpCapabilityEntry[]>, extra: Partial<UcpProfile['ucp']> = {}): UcpProfile {
  return { ucp: { version: V2, services: {}, payment_handlers: {}, capabilities, ...extra } };
}
const at = (version: string, more: Partial<UcpCapabilityEntry> = {}): UcpCapabilityEntry => ({ version, ...more });

describe('negotiate: the fixture profiles', () => {
  it('keeps what both declare: checkout, discount (via checkout), order; fulfillment is the business’s only', () => {
    expect(negotiate(fixture('platform-profile.json'), fixture('business-profile.json'))).toEqual({
      status: 'ok',
      version: V2,
      capabilities: { [CHECKOUT]: [{ version: V2 }], [DISCOUNT]: [{ version: V2 }], 'dev.ucp.shopping.order': [{ version: V2 }] },
      payment_handlers: fixture('business-profile.json').ucp.payment_handlers,
    });
  });
});

describe('negotiate: protocol version (step 2)', () => {
  it('equal versions negotiate', () => {
    expect(negotiate(profile({ [CHECKOUT]: [at(V2)] }), profile({ [CHECKOUT]: [at(V2)] })).status).toBe('ok');
  });

  it('an older platform version the business lists in supported_versions → fetch that leaf profile', () => {
    const business = profile({ [CHECKOUT]: [at(V2)] }, { supported_versions: { [V1]: 'https://shop.example/.well-known/ucp/2026-01-23' } });
    expect(negotiate(profile({ [CHECKOUT]: [at(V1)] }, { version: V1 }), business)).toEqual({
      status: 'version_profile',
      version: V1,
      profile_url: 'https://shop.example/.well-known/ucp/2026-01-23',
    });
  });

  it('any other version → version_unsupported, naming what the business supports (newest first)', () => {
    const business = profile({ [CHECKOUT]: [at(V2)] }, { version: V1, supported_versions: { '2026-01-11': 'https://shop.example/v0' } });
    expect(negotiate(profile({ [CHECKOUT]: [at(V2)] }), business)).toEqual({ status: 'version_unsupported', version: V2, supported: [V1, '2026-01-11'] });
  });
});

describe('negotiate: capability intersection (step 3)', () => {
  it('keeps names present in both, at the highest version both list', () => {
    const platform = profile({ [CHECKOUT]: [at(V1), at(V2)], [CART]: [at(V2)] });
    const business = profile({ [CHECKOUT]: [at('2025-12-01'), at(V1), at(V2)], 'com.shop.loyalty': [at(V2)] });
    const result = negotiate(platform, business);
    expect(result).toMatchObject({ status: 'ok', capabilities: { [CHECKOUT]: [{ version: V2 }] } });
    expect(Object.keys(result.status === 'ok' ? result.capabilities : {})).toEqual([CHECKOUT]);
  });

  it('the highest common version, not the highest of either side', () => {
    const platform = profile({ [CHECKOUT]: [at(V1), at('2026-09-01')] });
    const business = profile({ [CHECKOUT]: [at(V1), at(V2)] });
    expect(negotiate(platform, business)).toMatchObject({ capabilities: { [CHECKOUT]: [{ version: V1 }] } });
  });

  it('drops a capability with no common version', () => {
    const platform = profile({ [CHECKOUT]: [at(V2)], [CART]: [at(V1)] });
    const business = profile({ [CHECKOUT]: [at(V2)], [CART]: [at(V2)] });
    expect(negotiate(platform, business)).toMatchObject({ status: 'ok', capabilities: { [CHECKOUT]: [{ version: V2 }] } });
  });

  it('no checkout left → capabilities_incompatible (a result, with what did negotiate)', () => {
    const platform = profile({ [CHECKOUT]: [at(V1)], [CART]: [at(V2)] });
    const business = profile({ [CHECKOUT]: [at(V2)], [CART]: [at(V2)] });
    expect(negotiate(platform, business)).toEqual({ status: 'capabilities_incompatible', version: V2, missing: [CHECKOUT], capabilities: { [CART]: [{ version: V2 }] } });
  });

  it('the required set is an option', () => {
    const both = profile({ [CART]: [at(V2)] });
    expect(negotiate(both, both, { required: [CART] }).status).toBe('ok');
    expect(negotiate(both, both, { required: [] }).status).toBe('ok');
    expect(negotiate(both, both)).toMatchObject({ status: 'capabilities_incompatible', missing: [CHECKOUT] });
  });
});

describe('negotiate: extension pruning (steps 4–5)', () => {
  it('drops an extension whose parent did not negotiate', () => {
    const platform = profile({ [CHECKOUT]: [at(V2)], [FULFILLMENT]: [at(V2, { extends: CART })] });
    const business = profile({ [CHECKOUT]: [at(V2)], [FULFILLMENT]: [at(V2, { extends: CART })], [CART]: [at(V2)] });
    expect(negotiate(platform, business)).toMatchObject({ capabilities: { [CHECKOUT]: [{ version: V2 }] } });
    expect(Object.keys((negotiate(platform, business) as { capabilities: object }).capabilities)).toEqual([CHECKOUT]);
  });

  it('keeps a multi-parent extension while at least one parent is left, drops it when none is', () => {
    const discount = at(V2, { extends: [CHECKOUT, CART] });
    const oneParent = negotiate(profile({ [CHECKOUT]: [at(V2)], [DISCOUNT]: [discount] }), profile({ [CHECKOUT]: [at(V2)], [CART]: [at(V2)], [DISCOUNT]: [discount] }));
    expect(oneParent).toMatchObject({ status: 'ok', capabilities: { [DISCOUNT]: [{ version: V2 }] } });
    const noParent = negotiate(profile({ [CHECKOUT]: [at(V1)], [DISCOUNT]: [discount] }, {}), profile({ [CHECKOUT]: [at(V2)], [DISCOUNT]: [discount] }), { required: [] });
    expect(noParent).toEqual({ status: 'ok', version: V2, capabilities: {}, payment_handlers: {} });
  });

  it('repeats until stable: pruning one extension orphans the next (chain of three)', () => {
    const caps = {
      [CHECKOUT]: [at(V2)],
      'com.shop.a': [at(V2, { extends: CART })],
      'com.shop.b': [at(V2, { extends: 'com.shop.a' })],
      'com.shop.c': [at(V2, { extends: ['com.shop.b', 'com.shop.missing'] })],
    };
    // Listed leaf-first, so a single pass in declaration order would keep c and b.
    const business = profile(Object.fromEntries(Object.entries(caps).reverse()));
    const result = negotiate(profile(caps), business);
    expect(result).toEqual({ status: 'ok', version: V2, capabilities: { [CHECKOUT]: [{ version: V2 }] }, payment_handlers: {} });
  });

  it('uses the business’s extends for the chosen version (the server selects)', () => {
    const platform = profile({ [CHECKOUT]: [at(V2)], [DISCOUNT]: [at(V2, { extends: CART })] });
    const business = profile({ [CHECKOUT]: [at(V2)], [DISCOUNT]: [at(V2, { extends: CHECKOUT })] });
    expect(negotiate(platform, business)).toMatchObject({ capabilities: { [DISCOUNT]: [{ version: V2 }] } });
  });

  it('drops an extension whose requires is not met (protocol or capability range), then prunes again', () => {
    const caps = (requires: UcpCapabilityEntry['requires']) => ({
      [CHECKOUT]: [at(V1), at(V2)],
      [DISCOUNT]: [at(V2, { extends: CHECKOUT, requires })],
      'com.shop.child': [at(V2, { extends: DISCOUNT })],
    });
    const names = (requires: UcpCapabilityEntry['requires']) => {
      const result = negotiate(profile(caps(requires)), profile(caps(requires)));
      return result.status === 'ok' ? Object.keys(result.capabilities) : result.status;
    };
    expect(names({ protocol: { min: V1 } })).toEqual(['com.shop.child', CHECKOUT, DISCOUNT]);
    expect(names({ protocol: { min: '2026-05-01' } })).toEqual([CHECKOUT]);
    expect(names({ protocol: { min: V1, max: V1 } })).toEqual([CHECKOUT]);
    expect(names({ capabilities: { [CHECKOUT]: { min: V2 } } })).toEqual(['com.shop.child', CHECKOUT, DISCOUNT]);
    expect(names({ capabilities: { [CHECKOUT]: { min: V1, max: V1 } } })).toEqual([CHECKOUT]);
  });
});

describe('negotiate: payment handlers', () => {
  it('keeps the business’s handlers whose name the platform declares', () => {
    const handler = (id: string) => ({ id, version: V2 });
    const platform = profile({ [CHECKOUT]: [at(V2)] }, { payment_handlers: { 'com.pay.a': [handler('mine')], 'com.pay.c': [handler('c')] } });
    const business = profile({ [CHECKOUT]: [at(V2)] }, { payment_handlers: { 'com.pay.a': [handler('a1'), handler('a2')], 'com.pay.b': [handler('b')] } });
    expect(negotiate(platform, business)).toMatchObject({ payment_handlers: { 'com.pay.a': [handler('a1'), handler('a2')] } });
    expect(Object.keys((negotiate(platform, business) as { payment_handlers: object }).payment_handlers)).toEqual(['com.pay.a']);
  });
});
