import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { generateStandardWebhookKeyPair, generateStandardWebhookSecret, signStandardWebhook, verifyStandardWebhook } from '../src';
import fixtures from './fixtures/standard-webhooks/vectors.json';

const [vector] = fixtures.vectors;
const at = (sec: number) => () => sec * 1000;
const vectorHeaders = { 'webhook-id': vector.webhook_id, 'webhook-timestamp': String(vector.webhook_timestamp), 'webhook-signature': vector.expected_webhook_signature };
// RFC 8032 §7.1 TEST 1 key pair (a fixed key for v1a, which has no upstream vector).
const RFC8032_SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const RFC8032_PUBLIC = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');

describe('Standard Webhooks v1 (HMAC-SHA256, standardwebhooks library)', () => {
  it('reproduces the reference vector', () => {
    for (const secret of [vector.secret, vector.secret_without_prefix]) {
      expect(signStandardWebhook({ id: vector.webhook_id, timestamp: vector.webhook_timestamp, body: vector.payload, keys: secret })).toEqual(vectorHeaders);
    }
  });

  it('verifies the vector at its time, and up to 300 s either side', () => {
    const verify = (now: number) => verifyStandardWebhook({ headers: vectorHeaders, body: vector.payload, secretOrPublicKey: vector.secret, now: at(now) });
    expect(verify(vector.webhook_timestamp)).toEqual({ valid: true, version: 'v1', webhookId: vector.webhook_id, timestamp: vector.webhook_timestamp });
    expect(verify(vector.webhook_timestamp + 300)).toMatchObject({ valid: true });
    expect(verify(vector.webhook_timestamp - 300)).toMatchObject({ valid: true });
    expect(verify(vector.webhook_timestamp + 301)).toMatchObject({ valid: false, reason: 'expired' });
    expect(verify(vector.webhook_timestamp - 301)).toMatchObject({ valid: false, reason: 'not_yet_valid' });
    // With the real clock the 2021 vector is far too old.
    expect(verifyStandardWebhook({ headers: vectorHeaders, body: vector.payload, secretOrPublicKey: vector.secret })).toMatchObject({ reason: 'expired' });
  });

  it('rejects the tests\' non-matching signature, a changed body and another secret', () => {
    const now = at(vector.webhook_timestamp);
    const wrong = { ...vectorHeaders, 'webhook-signature': fixtures.non_matching_signature_used_in_tests };
    expect(verifyStandardWebhook({ headers: wrong, body: vector.payload, secretOrPublicKey: vector.secret, now })).toMatchObject({ reason: 'bad_signature' });
    expect(verifyStandardWebhook({ headers: vectorHeaders, body: `${vector.payload} `, secretOrPublicKey: vector.secret, now })).toMatchObject({ reason: 'bad_signature' });
    expect(verifyStandardWebhook({ headers: vectorHeaders, body: vector.payload, secretOrPublicKey: generateStandardWebhookSecret(), now })).toMatchObject({
      reason: 'bad_signature',
    });
  });

  it('accepts any matching entry of several (rotation) and any of several keys; a secret KeyObject works too', () => {
    const now = at(vector.webhook_timestamp);
    const several = { ...vectorHeaders, 'webhook-signature': `v1a,AAAA ${fixtures.non_matching_signature_used_in_tests}  ${vector.expected_webhook_signature} v2,zz` };
    expect(verifyStandardWebhook({ headers: several, body: vector.payload, secretOrPublicKey: vector.secret, now })).toMatchObject({ valid: true, version: 'v1' });
    const keys = [generateStandardWebhookSecret(), createSecretKey(Buffer.from(vector.secret_without_prefix, 'base64'))];
    expect(verifyStandardWebhook({ headers: vectorHeaders, body: Buffer.from(vector.payload), secretOrPublicKey: keys, now })).toMatchObject({ valid: true });
  });

  it('names missing headers and a malformed timestamp or signature list', () => {
    const now = at(vector.webhook_timestamp);
    const check = (headers: Record<string, string>) => verifyStandardWebhook({ headers, body: vector.payload, secretOrPublicKey: vector.secret, now });
    expect(check({})).toMatchObject({ reason: 'missing_signature' });
    expect(check({ ...vectorHeaders, 'webhook-id': undefined as never })).toMatchObject({ reason: 'missing_header' });
    expect(check({ 'webhook-signature': vector.expected_webhook_signature, 'webhook-id': vector.webhook_id })).toMatchObject({ reason: 'missing_header' });
    expect(check({ ...vectorHeaders, 'webhook-timestamp': '16142653e1' })).toMatchObject({ reason: 'malformed_signature' });
    expect(check({ ...vectorHeaders, 'webhook-signature': 'garbage' })).toMatchObject({ reason: 'malformed_signature' });
    expect(check({ ...vectorHeaders, 'webhook-signature': 'v1a,AAAA' })).toMatchObject({ reason: 'unknown_key' });
    expect(verifyStandardWebhook({ headers: vectorHeaders, body: '', secretOrPublicKey: 'whpk_AAAA', now })).toMatchObject({ reason: 'invalid_key' });
  });

  it('refuses a small-order whpk_ key, for which R = identity, S = 0 would verify every body', () => {
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const forged = Buffer.concat([identity, Buffer.alloc(32)]).toString('base64');
    const now = at(1_800_000_000);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1800000000', 'webhook-signature': `v1a,${forged}` };
    const result = verifyStandardWebhook({ headers, body: '{"any":"body"}', secretOrPublicKey: `whpk_${identity.toString('base64')}`, now });
    expect(result).toMatchObject({ valid: false, reason: 'invalid_key' });
  });
});

describe('Standard Webhooks v1a (ed25519, hand-written)', () => {
  const T = 1_800_000_000;
  const body = '{"type":"order.updated","id":"ord_1"}';

  it('derives the RFC 8032 TEST 1 public key from a whsk_ seed (32 or 64 bytes)', () => {
    const whpk = `whpk_${RFC8032_PUBLIC.toString('base64')}`;
    for (const whsk of [`whsk_${RFC8032_SEED.toString('base64')}`, `whsk_${Buffer.concat([RFC8032_SEED, RFC8032_PUBLIC]).toString('base64')}`]) {
      const headers = signStandardWebhook({ id: 'msg_1', timestamp: T, body, keys: whsk });
      expect(headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
      expect(verifyStandardWebhook({ headers, body, secretOrPublicKey: whpk, now: at(T) })).toEqual({ valid: true, version: 'v1a', webhookId: 'msg_1', timestamp: T });
    }
  });

  it('round-trips generated pairs and KeyObjects; rejects tampering and other keys', () => {
    const pair = generateStandardWebhookKeyPair();
    expect(pair.secretKey).toMatch(/^whsk_/);
    expect(pair.publicKey).toMatch(/^whpk_/);
    const headers = signStandardWebhook({ id: 'msg_2', timestamp: new Date(T * 1000), body, keys: pair.secretKey });
    expect(verifyStandardWebhook({ headers, body, secretOrPublicKey: pair.publicKey, now: at(T) })).toMatchObject({ valid: true });
    expect(verifyStandardWebhook({ headers, body: `${body} `, secretOrPublicKey: pair.publicKey, now: at(T) })).toMatchObject({ reason: 'bad_signature' });
    expect(verifyStandardWebhook({ headers: { ...headers, 'webhook-id': 'msg_3' }, body, secretOrPublicKey: pair.publicKey, now: at(T) })).toMatchObject({ reason: 'bad_signature' });
    expect(verifyStandardWebhook({ headers, body, secretOrPublicKey: generateStandardWebhookKeyPair().publicKey, now: at(T) })).toMatchObject({ reason: 'bad_signature' });
    const objects = generateKeyPairSync('ed25519');
    const signed = signStandardWebhook({ id: 'msg_4', timestamp: T, body, keys: objects.privateKey });
    expect(verifyStandardWebhook({ headers: signed, body, secretOrPublicKey: objects.publicKey, now: at(T) })).toMatchObject({ valid: true, version: 'v1a' });
  });

  it('signs with v1 and v1a at once; a verifier holding either key accepts', () => {
    const pair = generateStandardWebhookKeyPair();
    const secret = generateStandardWebhookSecret();
    const headers = signStandardWebhook({ id: 'msg_5', timestamp: T, body, keys: [secret, pair.secretKey] });
    expect(headers['webhook-signature'].split(' ').map((s) => s.split(',')[0])).toEqual(['v1', 'v1a']);
    expect(verifyStandardWebhook({ headers, body, secretOrPublicKey: secret, now: at(T) })).toMatchObject({ valid: true, version: 'v1' });
    expect(verifyStandardWebhook({ headers, body, secretOrPublicKey: pair.publicKey, now: at(T) })).toMatchObject({ valid: true, version: 'v1a' });
  });

  it('refuses to sign with a public key', () => {
    expect(() => signStandardWebhook({ id: 'm', body, keys: generateStandardWebhookKeyPair().publicKey })).toThrow('cannot sign');
  });
});
