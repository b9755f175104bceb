import type { UcpProfile } from '@exchange/ucp';
import { createPlatformIdentity } from '../merchants/platform-identity';
import { narrowPlatformProfile, negotiateWithMerchant } from './negotiation';

const platform = createPlatformIdentity({ exchangeSigningKey: new Uint8Array(32).fill(2), publicUrl: 'https://exchange.example' }).profile as unknown as UcpProfile;
const V = '2026-04-08';
const cap = (extra: Record<string, unknown> = {}) => [{ version: V, spec: 'https://ucp.dev/x', schema: 'https://ucp.dev/y', ...extra }];
const handlers = { 'local.shop.token': [{ id: 'h1', version: V }] };

function business(capabilities: Record<string, unknown>, ucp: Record<string, unknown> = {}): UcpProfile {
  return {
    ucp: { version: V, services: { 'dev.ucp.shopping': [{ version: V, transport: 'rest', endpoint: 'https://shop.example' }] }, capabilities, payment_handlers: handlers, ...ucp },
  } as unknown as UcpProfile;
}

const full = business({
  'dev.ucp.shopping.checkout': cap(),
  'dev.ucp.shopping.discount': cap({ extends: 'dev.ucp.shopping.checkout' }),
  'dev.ucp.shopping.order': cap(),
  'dev.ucp.shopping.fulfillment': cap({ extends: 'dev.ucp.shopping.checkout' }),
});

describe('negotiation with a merchant', () => {
  it('ok: the common capabilities, extensions with their parents, the merchant’s payment handlers', () => {
    const n = negotiateWithMerchant(platform, full, []);
    expect(n.status).toBe('ok');
    expect(n.version).toBe(V);
    expect(n.capabilities).toEqual([
      { name: 'dev.ucp.shopping.checkout', version: V, extends: [] },
      { name: 'dev.ucp.shopping.discount', version: V, extends: ['dev.ucp.shopping.checkout'] },
      { name: 'dev.ucp.shopping.order', version: V, extends: [] },
    ]);
    expect(n.paymentHandlers).toEqual(handlers);
    expect(n.messages).toEqual([]);
  });

  it('narrows to what the buyer asks for; an extension brings its parent', () => {
    expect(negotiateWithMerchant(platform, full, ['dev.ucp.shopping.order']).capabilities.map((c) => c.name)).toEqual(['dev.ucp.shopping.order']);
    expect(negotiateWithMerchant(platform, full, ['dev.ucp.shopping.discount']).capabilities.map((c) => c.name)).toEqual([
      'dev.ucp.shopping.checkout',
      'dev.ucp.shopping.discount',
    ]);
    const narrowed = narrowPlatformProfile(platform, ['dev.ucp.shopping.discount']);
    expect(Object.keys(narrowed.ucp.capabilities!).sort()).toEqual(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount']);
    expect(narrowPlatformProfile(platform, [])).toBe(platform);
  });

  it('capabilities_incompatible (a result): the merchant lacks what is required; orphan extensions are pruned', () => {
    const noCheckout = business({ 'dev.ucp.shopping.discount': cap({ extends: 'dev.ucp.shopping.checkout' }), 'dev.ucp.shopping.order': cap() });
    const n = negotiateWithMerchant(platform, noCheckout, []);
    expect(n.status).toBe('capabilities_incompatible');
    expect(n.capabilities.map((c) => c.name)).toEqual(['dev.ucp.shopping.order']);
    expect(n.paymentHandlers).toEqual({});
    expect(n.messages).toEqual([expect.objectContaining({ type: 'error', code: 'capabilities_incompatible', content: expect.stringContaining('dev.ucp.shopping.checkout') })]);

    const noDiscount = business({ 'dev.ucp.shopping.checkout': cap() });
    expect(negotiateWithMerchant(platform, noDiscount, ['dev.ucp.shopping.discount']).status).toBe('capabilities_incompatible');
    expect(negotiateWithMerchant(platform, noDiscount, []).status).toBe('ok');
  });

  it('no common version of a capability drops it', () => {
    const older = business({ 'dev.ucp.shopping.checkout': [{ version: '2026-01-11' }] });
    expect(negotiateWithMerchant(platform, older, []).status).toBe('capabilities_incompatible');
  });

  it('version_unsupported (a result), also when the version is only behind another profile', () => {
    const other = { ...full, ucp: { ...full.ucp, version: '2026-01-11' } } as UcpProfile;
    const n = negotiateWithMerchant(platform, other, []);
    expect(n).toMatchObject({ status: 'version_unsupported', version: V, capabilities: [] });
    expect(n.messages[0]).toMatchObject({ code: 'version_unsupported', content: expect.stringContaining('2026-01-11') });
    const leaf = { ...other, ucp: { ...other.ucp, supported_versions: { [V]: 'https://shop.example/ucp/2026-04-08.json' } } } as UcpProfile;
    expect(negotiateWithMerchant(platform, leaf, []).status).toBe('version_unsupported');
  });

  it('a capability the exchange does not offer is a 400 naming it', () => {
    expect(() => negotiateWithMerchant(platform, full, ['dev.ucp.shopping.checkout', 'com.example.loyalty'])).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { errors: [expect.objectContaining({ pointer: '/capabilities/1' })] } }),
    );
  });
});
