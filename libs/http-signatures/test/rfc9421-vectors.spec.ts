import { createPrivateKey, createPublicKey, createSecretKey } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { signHttpMessage, verifyHttpMessage, type HttpMessage, type KeyInput } from '../src';
import fixtures from './fixtures/rfc9421-vectors.json';

// RFC 9421 Appendix B (see fixtures/SOURCE.md). The vectors carry created=1618884473 (2021):
// the clock is pinned there so time checks pass.
const CREATED = 1618884473;
const now = () => CREATED * 1000;
type Fixture = (typeof fixtures.vectors)[number];

const keys: Record<string, { verify: KeyInput; sign: KeyInput }> = {
  'test-key-ecc-p256': {
    verify: createPublicKey(fixtures.keys['test-key-ecc-p256'].publicPem),
    sign: createPrivateKey(fixtures.keys['test-key-ecc-p256'].privatePem),
  },
  'test-key-ed25519': {
    verify: createPublicKey(fixtures.keys['test-key-ed25519'].publicPem),
    sign: createPrivateKey(fixtures.keys['test-key-ed25519'].privatePem),
  },
  'test-shared-secret': {
    verify: createSecretKey(Buffer.from(fixtures.keys['test-shared-secret'].secretBase64, 'base64')),
    sign: createSecretKey(Buffer.from(fixtures.keys['test-shared-secret'].secretBase64, 'base64')),
  },
};

function unsignedMessage(vector: Fixture): HttpMessage {
  const m = fixtures.messages[vector.message as keyof typeof fixtures.messages];
  return 'method' in m ? { method: m.method, url: m.url, headers: { ...m.headers } } : { status: m.status, headers: { ...m.headers } };
}

function signedMessage(vector: Fixture, body?: string): HttpMessage {
  const message = unsignedMessage(vector);
  message.headers['Signature-Input'] = vector.signatureInput;
  message.headers['Signature'] = vector.signature;
  return body === undefined ? message : { ...message, body };
}

const resolveKey = (keyid: string) => keys[keyid]?.verify ?? null;
const components = (vector: Fixture) => [...vector.signatureInput.matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((c) => !c.startsWith('test-'));

describe.each(fixtures.vectors)('RFC 9421 $name ($algorithm)', (vector) => {
  it('verifies the RFC signature', async () => {
    await expect(verifyHttpMessage(signedMessage(vector), { resolveKey, now })).resolves.toMatchObject({
      valid: true,
      label: vector.label,
      keyid: vector.key,
      algorithm: vector.algorithm,
      created: CREATED,
    });
  });

  it('verifies it with the body bound through the RFC Content-Digest (sha-512)', async () => {
    const body = fixtures.messages[vector.message as keyof typeof fixtures.messages].body;
    // B.2.5 does not cover content-digest; only the digest check itself applies then.
    const result = await verifyHttpMessage(signedMessage(vector, body), { resolveKey, now, requiredComponents: [] });
    if (components(vector).includes('content-digest')) expect(result).toMatchObject({ valid: true });
    else expect(result).toMatchObject({ valid: false, reason: 'component_not_covered' });
    await expect(verifyHttpMessage(signedMessage(vector, `${body}!`), { resolveKey, now })).resolves.toMatchObject({ valid: false });
  });

  it('fails on a changed covered header', async () => {
    const message = signedMessage(vector);
    message.headers['Content-Type'] = 'text/plain';
    await expect(verifyHttpMessage(message, { resolveKey, now })).resolves.toMatchObject({ valid: false, reason: 'bad_signature' });
  });

  if (vector.signatureBase) {
    it('builds the RFC signature base (library)', () => {
      const message = unsignedMessage(vector);
      const base = httpbis.createSignatureBase({ fields: components(vector) }, message as never);
      base.push(['"@signature-params"', [vector.signatureInput.slice(vector.label.length + 1)]]);
      expect(httpbis.formatSignatureBase(base)).toBe(vector.signatureBase);
    });
  }

  if (vector.deterministic) {
    it('reproduces the RFC signature byte for byte', async () => {
      const headers = await signHttpMessage(unsignedMessage(vector), {
        key: keys[vector.key].sign,
        keyid: vector.key,
        label: vector.label,
        components: components(vector),
        now,
      });
      expect(headers['Signature-Input']).toBe(vector.signatureInput);
      expect(headers['Signature']).toBe(vector.signature);
    });
  } else {
    it('round-trips a fresh (randomized) signature with the same key and components', async () => {
      const message = unsignedMessage(vector);
      const headers = await signHttpMessage(message, { key: keys[vector.key].sign, keyid: vector.key, label: vector.label, components: components(vector), now });
      expect(headers['Signature']).not.toBe(vector.signature);
      expect(Buffer.from(String(headers['Signature']).split(':')[1], 'base64')).toHaveLength(64); // raw r‖s
      await expect(verifyHttpMessage({ ...message, headers }, { resolveKey, now })).resolves.toMatchObject({ valid: true, keyid: vector.key });
    });
  }
});

describe('RFC 9421 keys as JWK (a UCP signing_keys entry)', () => {
  it('verifies B.2.4 with the P-256 JWK and B.2.6 with the ed25519 JWK', async () => {
    const jwks: Record<string, KeyInput> = {
      'test-key-ecc-p256': fixtures.keys['test-key-ecc-p256'].publicJwk,
      'test-key-ed25519': fixtures.keys['test-key-ed25519'].publicJwk,
    };
    for (const vector of fixtures.vectors.filter((v) => v.key in jwks)) {
      await expect(verifyHttpMessage(signedMessage(vector), { resolveKey: (kid) => jwks[kid] ?? null, now })).resolves.toMatchObject({ valid: true });
    }
  });
});
