import { nodeKeyPair, nodePublicKeyFromSeed, nodeSha256Hex, nodeVerify } from './testing/node-ed25519';
import { agentSignatureHeaders, buildRegistrationBody, generateAgentKeys, signRequest } from './keys';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('signRequest', () => {
  const keys = nodeKeyPair();

  it('signs the canonical {body_sha256, method, path, timestamp} string, query string included', () => {
    const signed = signRequest({ method: 'get', path: '/v1/agents?limit=2&status=active', timestamp: 1763748000, privateKey: keys.privateKey });
    // Canonical form written out by hand: keys sorted, no whitespace, method upper-cased.
    const canonical = `{"body_sha256":"${EMPTY_SHA256}","method":"GET","path":"/v1/agents?limit=2&status=active","timestamp":"1763748000"}`;
    expect(signed.timestamp).toBe('1763748000');
    expect(signed.bodySha256).toBe(EMPTY_SHA256);
    expect(nodeVerify(canonical, signed.signature, keys.publicKey)).toBe(true);
  });

  it('hashes the exact body bytes', () => {
    const body = '{"reason":"rotate ключ","b":1}';
    const signed = signRequest({ method: 'POST', path: '/v1/agents/a:agent:b/freeze', body, timestamp: '1700000000', privateKey: keys.privateKey });
    const bodyHash = nodeSha256Hex(Buffer.from(body, 'utf8'));
    expect(signed.bodySha256).toBe(bodyHash);
    const canonical = `{"body_sha256":"${bodyHash}","method":"POST","path":"/v1/agents/a:agent:b/freeze","timestamp":"1700000000"}`;
    expect(nodeVerify(canonical, signed.signature, keys.publicKey)).toBe(true);
    // Byte input gives the same hash as the string it encodes.
    const fromBytes = signRequest({ method: 'POST', path: '/v1/agents/a:agent:b/freeze', body: Buffer.from(body), timestamp: '1700000000', privateKey: keys.privateKey });
    expect(fromBytes.signature).toBe(signed.signature);
  });

  it('binds every field: another path, timestamp or body does not verify', () => {
    const signed = signRequest({ method: 'GET', path: '/v1/agents?limit=2', timestamp: '1700000000', privateKey: keys.privateKey });
    const variant = (path: string, ts: string, sha: string) => `{"body_sha256":"${sha}","method":"GET","path":"${path}","timestamp":"${ts}"}`;
    expect(nodeVerify(variant('/v1/agents?limit=2', '1700000000', EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(true);
    expect(nodeVerify(variant('/v1/agents', '1700000000', EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(false);
    expect(nodeVerify(variant('/v1/agents?limit=2', '1700000001', EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(false);
    expect(nodeVerify(variant('/v1/agents?limit=2', '1700000000', nodeSha256Hex('{}')), signed.signature, keys.publicKey)).toBe(false);
  });

  it('agentSignatureHeaders names the agent and carries the same signature', () => {
    const input = { agentId: 'acme:agent:bot', method: 'GET', path: '/v1/agents', timestamp: '1700000000', privateKey: keys.privateKey };
    expect(agentSignatureHeaders(input)).toEqual({
      'X-Agent-Id': 'acme:agent:bot',
      'X-Agent-Timestamp': '1700000000',
      'X-Agent-Signature': signRequest(input).signature,
    });
  });
});

describe('generateAgentKeys', () => {
  it('makes a 32-byte seed whose public key OpenSSL derives identically', () => {
    const keys = generateAgentKeys();
    expect(keys.privateKey).toHaveLength(32);
    expect(Buffer.from(keys.publicKey).toString('base64')).toBe(nodePublicKeyFromSeed(keys.privateKey));
    expect(Buffer.from(generateAgentKeys().privateKey).equals(Buffer.from(keys.privateKey))).toBe(false);
  });
});

describe('buildRegistrationBody', () => {
  const keys = nodeKeyPair();
  const primary = Buffer.from(keys.publicKey).toString('base64');

  it('carries a proof over canonical {agent_id, primary_pubkey, proof_nonce} that node:crypto verifies', () => {
    const extra = nodeKeyPair().publicKey;
    const body = buildRegistrationBody({ agentId: 'acme:agent:bot', keys, additionalPublicKeys: [extra], proofNonce: 'nonce-1' });
    expect(body).toEqual({
      agent_id: 'acme:agent:bot',
      primary_pubkey: primary,
      pubkey_set: [Buffer.from(extra).toString('base64')],
      identity_level: 'SANDBOX_UNVERIFIED',
      proof_nonce: 'nonce-1',
      proof_signature: expect.any(String),
    });
    const canonical = `{"agent_id":"acme:agent:bot","primary_pubkey":"${primary}","proof_nonce":"nonce-1"}`;
    expect(nodeVerify(canonical, body.proof_signature, keys.publicKey)).toBe(true);
    expect(nodeVerify(canonical.replace('nonce-1', 'nonce-2'), body.proof_signature, keys.publicKey)).toBe(false);
  });

  it('uses a fresh random nonce by default and keeps the requested level', () => {
    const a = buildRegistrationBody({ agentId: 'acme:agent:bot', keys, identityLevel: 'MAINNET_BASIC' });
    const b = buildRegistrationBody({ agentId: 'acme:agent:bot', keys });
    expect(a.proof_nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(a.proof_nonce).not.toBe(b.proof_nonce);
    expect(a.identity_level).toBe('MAINNET_BASIC');
    const canonical = `{"agent_id":"acme:agent:bot","primary_pubkey":"${primary}","proof_nonce":"${a.proof_nonce}"}`;
    expect(nodeVerify(canonical, a.proof_signature, keys.publicKey)).toBe(true);
  });

  it('accepts base64 additional keys and rejects a public key that is not the private key’s', () => {
    const other = nodeKeyPair();
    const otherB64 = Buffer.from(other.publicKey).toString('base64');
    expect(buildRegistrationBody({ agentId: 'a:agent:b', keys, additionalPublicKeys: [otherB64] }).pubkey_set).toEqual([otherB64]);
    expect(() => buildRegistrationBody({ agentId: 'a:agent:b', keys: { privateKey: keys.privateKey, publicKey: other.publicKey } })).toThrow(
      'keys.publicKey does not belong to keys.privateKey',
    );
  });
});
