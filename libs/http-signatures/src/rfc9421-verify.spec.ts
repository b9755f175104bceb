import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signHttpMessage } from './rfc9421-sign';
import { verifyHttpMessage, type VerifyOptions } from './rfc9421-verify';
import type { HttpRequest } from './message';

const T0 = 1_800_000_000;
const at = (sec: number) => () => sec * 1000;
const platform = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...platform.publicKey.export({ format: 'jwk' }), kid: 'platform-1', use: 'sig', alg: 'ES256' };

const request = (): HttpRequest => ({
  method: 'POST',
  url: 'https://merchant.example/checkout-sessions/cs_1/complete?x=1',
  headers: {
    'Content-Type': 'application/json',
    'UCP-Agent': 'profile="https://exchange.example/.well-known/ucp"',
    'Idempotency-Key': '1f6e2a8e-4a1c-4c6f-9a55-4b1c8a1c2d3e',
    'Request-Id': 'r-1',
  },
  body: '{"payment":{}}',
});

async function signed(options: { key?: KeyObject; expiresInSec?: number; includeAlg?: boolean; components?: string[] } = {}): Promise<HttpRequest> {
  const req = request();
  const headers = await signHttpMessage(req, { key: options.key ?? platform.privateKey, keyid: 'platform-1', now: at(T0), ...options });
  return { ...req, headers };
}

const verifyOptions = (extra: Partial<VerifyOptions> = {}): VerifyOptions => ({
  resolveKey: (kid) => (kid === 'platform-1' ? jwk : null),
  now: at(T0),
  ...extra,
});

describe('signHttpMessage (ES256, UCP components)', () => {
  it('adds Content-Digest and covers the UCP request components, without alg', async () => {
    const { headers } = await signed();
    expect(headers['Content-Digest']).toMatch(/^sha-256=:[A-Za-z0-9+/]+=*:$/);
    expect(headers['Signature-Input']).toBe(
      `sig1=("@method" "@authority" "@path" "@query" "ucp-agent" "idempotency-key" "content-digest" "content-type");created=${T0};keyid="platform-1"`,
    );
    expect(Buffer.from(String(headers['Signature']).split(':')[1], 'base64')).toHaveLength(64);
  });

  it('verifies with the JWK from the resolver and reports what it checked', async () => {
    await expect(verifyHttpMessage(await signed(), verifyOptions())).resolves.toEqual({
      valid: true,
      label: 'sig1',
      keyid: 'platform-1',
      algorithm: 'ecdsa-p256-sha256',
      created: T0,
      expires: undefined,
      components: ['"@method"', '"@authority"', '"@path"', '"@query"', '"ucp-agent"', '"idempotency-key"', '"content-digest"', '"content-type"'],
    });
  });

  it('signs responses with @status and the body pair', async () => {
    const response = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"cs_1"}' };
    const headers = await signHttpMessage(response, { key: platform.privateKey, keyid: 'platform-1', now: at(T0), includeAlg: true });
    expect(headers['Signature-Input']).toBe(`sig1=("@status" "content-digest" "content-type");created=${T0};keyid="platform-1";alg="ecdsa-p256-sha256"`);
    await expect(verifyHttpMessage({ ...response, headers }, verifyOptions())).resolves.toMatchObject({ valid: true });
  });

  it('refuses to sign with a public key or an RSA key', async () => {
    await expect(signHttpMessage(request(), { key: platform.publicKey, keyid: 'k' })).rejects.toThrow('a public key cannot sign');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    await expect(signHttpMessage(request(), { key: rsa.privateKey, keyid: 'k' })).rejects.toThrow('unsupported signing key');
  });
});

describe('verifyHttpMessage reasons', () => {
  it('missing_signature without headers, malformed_signature with one or garbage', async () => {
    await expect(verifyHttpMessage(request(), verifyOptions())).resolves.toMatchObject({ valid: false, reason: 'missing_signature' });
    const req = await signed();
    delete req.headers['Signature'];
    await expect(verifyHttpMessage(req, verifyOptions())).resolves.toMatchObject({ valid: false, reason: 'malformed_signature' });
    req.headers['Signature'] = 'sig1=not base64';
    await expect(verifyHttpMessage(req, verifyOptions())).resolves.toMatchObject({ valid: false, reason: 'malformed_signature' });
  });

  it('unknown_key for another keyid or none, key_lookup_failed when the resolver throws, invalid_key for junk', async () => {
    const req = await signed();
    await expect(verifyHttpMessage(req, verifyOptions({ resolveKey: () => null }))).resolves.toMatchObject({ reason: 'unknown_key', keyid: 'platform-1' });
    const unreachable = () => Promise.reject(new Error('profile_unreachable'));
    await expect(verifyHttpMessage(req, verifyOptions({ resolveKey: unreachable }))).resolves.toMatchObject({ reason: 'key_lookup_failed', detail: 'profile_unreachable' });
    await expect(verifyHttpMessage(req, verifyOptions({ resolveKey: () => ({ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }) }))).resolves.toMatchObject({ reason: 'invalid_key' });
    req.headers['Signature-Input'] = String(req.headers['Signature-Input']).replace(';keyid="platform-1"', '');
    await expect(verifyHttpMessage(req, verifyOptions())).resolves.toMatchObject({ reason: 'unknown_key' });
  });

  it('invalid_key for a small-order or non-canonical ed25519 key, as JWK or KeyObject', async () => {
    const req = await signed();
    const identity = Buffer.alloc(32);
    identity[0] = 1; // y = 1: the neutral point, against which one forged signature fits every message
    const notCanonical = Buffer.alloc(32, 0xff);
    notCanonical[31] = 0x7f; // y = 2^255 − 1 ≥ p
    for (const raw of [identity, notCanonical]) {
      const okp = { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') };
      await expect(verifyHttpMessage(req, verifyOptions({ resolveKey: () => okp }))).resolves.toMatchObject({ reason: 'invalid_key' });
    }
    const keyObject = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), identity]), format: 'der', type: 'spki' });
    await expect(verifyHttpMessage(req, verifyOptions({ resolveKey: () => keyObject }))).resolves.toMatchObject({ reason: 'invalid_key' });
  });

  it('bad_signature for the wrong key or a changed covered header', async () => {
    const req = await signed();
    await expect(verifyHttpMessage(req, verifyOptions({ resolveKey: () => other.publicKey }))).resolves.toMatchObject({ reason: 'bad_signature' });
    req.headers['Idempotency-Key'] = 'another';
    await expect(verifyHttpMessage(req, verifyOptions())).resolves.toMatchObject({ reason: 'bad_signature' });
  });

  it('digest_mismatch for a changed body, missing_digest without the header, component_not_covered when unsigned', async () => {
    const req = await signed();
    await expect(verifyHttpMessage({ ...req, body: '{"payment":{"x":1}}' }, verifyOptions())).resolves.toMatchObject({ reason: 'digest_mismatch' });
    delete req.headers['Content-Digest'];
    await expect(verifyHttpMessage(req, verifyOptions())).resolves.toMatchObject({ reason: 'missing_digest' });
    const noDigest = await signed({ components: ['@method', '@path'] });
    delete noDigest.headers['Content-Digest'];
    await expect(verifyHttpMessage(noDigest, verifyOptions({ requiredComponents: [] }))).resolves.toMatchObject({ reason: 'component_not_covered' });
  });

  it('component_not_covered when a required component is not signed; missing_component when a signed one is absent', async () => {
    const partial = await signed({ components: ['@method', '@path', 'content-digest'] });
    await expect(verifyHttpMessage(partial, verifyOptions({ requiredComponents: ['@authority'] }))).resolves.toMatchObject({
      reason: 'component_not_covered',
      detail: 'not signed: @authority',
    });
    const req = await signed();
    delete req.headers['UCP-Agent'];
    await expect(verifyHttpMessage(req, verifyOptions())).resolves.toMatchObject({ reason: 'missing_component' });
  });

  it('expired past expires or maxAge (with skew), not_yet_valid when created is ahead', async () => {
    const req = await signed({ expiresInSec: 60 });
    await expect(verifyHttpMessage(req, verifyOptions({ now: at(T0 + 60 + 300) }))).resolves.toMatchObject({ valid: true });
    await expect(verifyHttpMessage(req, verifyOptions({ now: at(T0 + 60 + 301) }))).resolves.toMatchObject({ reason: 'expired' });
    await expect(verifyHttpMessage(req, verifyOptions({ now: at(T0 + 100), skewSec: 0 }))).resolves.toMatchObject({ reason: 'expired' });
    await expect(verifyHttpMessage(req, verifyOptions({ now: at(T0 - 301) }))).resolves.toMatchObject({ reason: 'not_yet_valid' });
    const old = await signed();
    await expect(verifyHttpMessage(old, verifyOptions({ now: at(T0 + 1000), maxAgeSec: 600 }))).resolves.toMatchObject({ reason: 'expired' });
    await expect(verifyHttpMessage(old, verifyOptions({ now: at(T0 + 1000) }))).resolves.toMatchObject({ valid: true });
  });

  it('unsupported_algorithm for an alg that contradicts the key or a key type not allowed', async () => {
    const req = await signed({ includeAlg: true });
    req.headers['Signature-Input'] = String(req.headers['Signature-Input']).replace('alg="ecdsa-p256-sha256"', 'alg="hmac-sha256"');
    await expect(verifyHttpMessage(req, verifyOptions())).resolves.toMatchObject({ reason: 'unsupported_algorithm' });
    await expect(verifyHttpMessage(await signed(), verifyOptions({ algorithms: ['ed25519'] }))).resolves.toMatchObject({ reason: 'unsupported_algorithm' });
  });

  it('accepts the first valid of several signatures, or only the asked label', async () => {
    const req = await signed();
    const twice = await signHttpMessage(req, { key: other.privateKey, keyid: 'other', now: at(T0) });
    expect(twice['Signature-Input']).toMatch(/^sig1=.*, sig10=/);
    const both = { ...req, headers: twice };
    await expect(verifyHttpMessage(both, verifyOptions())).resolves.toMatchObject({ valid: true, label: 'sig1' });
    await expect(verifyHttpMessage(both, verifyOptions({ label: 'sig10' }))).resolves.toMatchObject({ reason: 'unknown_key', label: 'sig10' });
    await expect(verifyHttpMessage(both, verifyOptions({ label: 'nope' }))).resolves.toMatchObject({ reason: 'missing_signature' });
    let many = both.headers;
    for (let i = 0; i < 7; i++) many = await signHttpMessage({ ...req, headers: many }, { key: other.privateKey, keyid: 'other', now: at(T0) });
    await expect(verifyHttpMessage({ ...req, headers: many }, verifyOptions())).resolves.toMatchObject({ reason: 'malformed_signature', detail: 'more than 8 signatures' });
  });
});
