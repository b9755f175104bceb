import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { ConfigError } from '@exchange/platform';
import { createUcpValidator, negotiate } from '@exchange/ucp';
import { createPlatformIdentity } from './platform-identity';
import { derivePlatformKey, derivedKeyId, parsePlatformKey } from './platform-key';

const seed = (byte: number) => new Uint8Array(32).fill(byte);
const PUBLIC_URL = 'https://exchange.example';

describe('platform key', () => {
  it('derives the same P-256 key from the same exchange seed, and another from another seed', () => {
    const a = derivePlatformKey(seed(7));
    const b = derivePlatformKey(seed(7));
    const c = derivePlatformKey(seed(8));
    expect(b.publicJwk).toEqual(a.publicJwk);
    expect(c.publicJwk.x).not.toBe(a.publicJwk.x);
    expect(a.keyId).toMatch(/^exchange-platform-[0-9a-f]{16}$/);
    expect(a.keyId).toBe(derivedKeyId(a.publicJwk.x, a.publicJwk.y));
    expect(a.publicJwk).toMatchObject({ kid: a.keyId, kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
    expect(a.publicJwk).not.toHaveProperty('d');
  });

  it('is pinned: a change of the derivation would silently rotate every exchange key', () => {
    const key = derivePlatformKey(seed(1));
    expect(key.keyId).toBe(PINNED_KID);
    expect(key.publicJwk).toMatchObject({ x: PINNED_X, y: PINNED_Y });
  });

  it('gives a key pair whose public JWK verifies what the private key signs (ES256, raw r‖s)', () => {
    const key = derivePlatformKey(seed(3));
    const data = Buffer.from('payload');
    const signature = sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(signature).toHaveLength(64);
    const pub = createPublicKey({ key: key.publicJwk, format: 'jwk' });
    expect(verify('sha256', data, { key: pub, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
  });

  it('reads COMMERCE_PLATFORM_KEY (a P-256 private JWK with kid) and names the variable when it is wrong', () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(pair.privateKey.export({ format: 'jwk' }) as object), kid: 'platform-2026' };
    const key = parsePlatformKey(JSON.stringify(jwk));
    expect(key.keyId).toBe('platform-2026');
    expect(key.publicJwk).toEqual({ ...(pair.publicKey.export({ format: 'jwk' }) as object), kid: 'platform-2026', use: 'sig', alg: 'ES256' });

    const bad = (text: string, pattern: RegExp) => {
      let caught: unknown;
      try {
        parsePlatformKey(text);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).variable).toBe('COMMERCE_PLATFORM_KEY');
      expect((caught as Error).message).toMatch(pattern);
    };
    bad('not json', /not JSON/);
    bad('[]', /JSON object/);
    bad(JSON.stringify({ ...jwk, kid: undefined }), /kid/);
    bad(JSON.stringify({ ...jwk, d: undefined }), /private/);
    const p384 = { ...(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' }) as object), kid: 'k' };
    bad(JSON.stringify(p384), /P-256/);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as { x: string };
    bad(JSON.stringify({ ...jwk, x: other.x }), /do not belong|usable/);
    bad(JSON.stringify({ ...jwk, d: 'AAAA' }), /usable|belong/);
  });
});

describe('platform profile', () => {
  const identity = createPlatformIdentity({ exchangeSigningKey: seed(9), publicUrl: PUBLIC_URL });
  const ucp = createUcpValidator();

  it('validates as a UCP 2026-04-08 platform profile', () => {
    expect(ucp.validate('platform_profile', identity.profile)).toEqual({ valid: true });
    expect(ucp.validate('profile', identity.profile)).toEqual({ valid: true });
  });

  it('publishes the REST endpoint, the order webhook URL and the signing key', () => {
    const profile = identity.profile as any;
    expect(profile.ucp.version).toBe('2026-04-08');
    expect(profile.ucp.services['dev.ucp.shopping']).toEqual([expect.objectContaining({ transport: 'rest', endpoint: `${PUBLIC_URL}/v1/commerce/ucp` })]);
    expect(Object.keys(profile.ucp.capabilities).sort()).toEqual(['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount', 'dev.ucp.shopping.order']);
    expect(profile.ucp.capabilities['dev.ucp.shopping.discount'][0].extends).toBe('dev.ucp.shopping.checkout');
    expect(profile.ucp.capabilities['dev.ucp.shopping.order'][0].config).toEqual({ webhook_url: `${PUBLIC_URL}/v1/commerce/ucp/webhooks/orders` });
    for (const entries of Object.values<any[]>(profile.ucp.capabilities)) expect(entries[0].spec).toMatch(/^https:\/\/ucp\.dev\//);
    expect(profile.signing_keys).toEqual([identity.publicJwk]);
    expect(identity.profileUrl).toBe(`${PUBLIC_URL}/.well-known/ucp`);
    expect(identity.webhookUrl).toBe(`${PUBLIC_URL}/v1/commerce/ucp/webhooks/orders`);
    expect(identity.keyId).toBe(identity.publicJwk.kid);
  });

  it('uses COMMERCE_PLATFORM_KEY when given instead of the derived key', () => {
    const jwk = { ...(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as object), kid: 'given' };
    const given = createPlatformIdentity({ platformKeyJwk: JSON.stringify(jwk), exchangeSigningKey: seed(9), publicUrl: PUBLIC_URL });
    expect(given.keyId).toBe('given');
    expect((given.profile as any).signing_keys[0].kid).toBe('given');
  });

  it('negotiates with itself: every capability it offers survives', () => {
    const result = negotiate(identity.profile as any, identity.profile as any);
    expect(result.status).toBe('ok');
  });
});

// Computed by a separate Python implementation (HKDF per RFC 5869, affine P-256 arithmetic).
const PINNED_KID = 'exchange-platform-b74e88907f6652d4';
const PINNED_X = 'xxi9ax4WK3uKkRdeqdt1Pl3hGuzuIbNWhvxvMenn3og';
const PINNED_Y = 'GwuBAGvwgcUYV0F_Zmrh2jEmtruJPJ9Kd-S6lX6LjmY';
