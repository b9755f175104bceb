import { createHash, generateKeyPairSync } from 'node:crypto';
import { createUcpValidator } from '@exchange/ucp';
import { businessProfile } from './profile';
import { jwkThumbprint, loadSigningKey, parsePrivateKey, signingKey } from './signing-key';

describe('signing key', () => {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  it('reads a P-256 private key as JWK or PEM, with a thumbprint kid by default', () => {
    const jwk = JSON.stringify(pair.privateKey.export({ format: 'jwk' }));
    const pem = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const fromJwk = loadSigningKey({ key: jwk, allowGenerated: false });
    const fromPem = loadSigningKey({ key: pem, allowGenerated: false });
    expect(fromJwk.publicJwk).toEqual(fromPem.publicJwk);
    expect(fromJwk.kid).toBe(`sandbox-merchant-${jwkThumbprint(fromJwk.publicJwk).slice(0, 16)}`);
    expect(fromJwk.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
    expect(fromJwk.publicJwk).not.toHaveProperty('d');
    expect(signingKey(pair.privateKey, 'k1').kid).toBe('k1');
  });

  it('refuses other curves, and generates a key only when allowed (sandbox)', () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => parsePrivateKey(p384)).toThrow(/P-256/);
    expect(() => loadSigningKey({ allowGenerated: false })).toThrow(/required/);
    expect(loadSigningKey({ allowGenerated: true }).publicJwk.crv).toBe('P-256');
  });

  it('thumbprints the required members in lexical order, whatever order they come in (RFC 7638)', () => {
    const x = 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU';
    const y = 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0';
    const expected = createHash('sha256').update(`{"crv":"P-256","kty":"EC","x":"${x}","y":"${y}"}`).digest('base64url');
    expect(jwkThumbprint({ y, x, kty: 'EC', crv: 'P-256' })).toBe(expected);
  });
});

describe('business profile', () => {
  it('is a valid UCP business profile whose REST endpoint is the base URL', () => {
    const key = loadSigningKey({ allowGenerated: true });
    const profile = businessProfile('https://sandbox-merchant.local', key) as any;
    expect(createUcpValidator().validate('business_profile', profile)).toEqual({ valid: true });
    expect(profile.ucp.services['dev.ucp.shopping'][0].endpoint).toBe('https://sandbox-merchant.local');
    expect(profile.signing_keys).toEqual([key.publicJwk]);
  });
});
