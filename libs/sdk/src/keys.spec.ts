import { nodeKeyPair, nodePublicKeyFromSeed, nodeSha256Hex, nodeVerify } from './testing/node-ed25519';
import { agentSignatureHeaders, buildRegistrationBody, generateAgentKeys, signRequest } from './keys';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('signRequest', () => {
  const keys = nodeKeyPair();
  const AGENT = 'acme:agent:bot';
  const NONCE = 'nonce-0123456789abcdef';

  it('signs the canonical {agent_id, body_sha256, method, nonce, path, timestamp} string, query string included', () => {
    const signed = signRequest({ agentId: AGENT, method: 'get', path: '/v1/agents?limit=2&status=active', timestamp: 1763748000, nonce: NONCE, privateKey: keys.privateKey });
    // Canonical form written out by hand: keys sorted, no whitespace, method upper-cased.
    const canonical = `{"agent_id":"${AGENT}","body_sha256":"${EMPTY_SHA256}","method":"GET","nonce":"${NONCE}","path":"/v1/agents?limit=2&status=active","timestamp":"1763748000"}`;
    expect(signed.timestamp).toBe('1763748000');
    expect(signed.nonce).toBe(NONCE);
    expect(signed.bodySha256).toBe(EMPTY_SHA256);
    expect(nodeVerify(canonical, signed.signature, keys.publicKey)).toBe(true);
  });

  it('hashes the exact body bytes', () => {
    const body = '{"reason":"rotate ключ","b":1}';
    const signed = signRequest({ agentId: AGENT, method: 'POST', path: '/v1/agents/a:agent:b/freeze', body, timestamp: '1700000000', nonce: NONCE, privateKey: keys.privateKey });
    const bodyHash = nodeSha256Hex(Buffer.from(body, 'utf8'));
    expect(signed.bodySha256).toBe(bodyHash);
    const canonical = `{"agent_id":"${AGENT}","body_sha256":"${bodyHash}","method":"POST","nonce":"${NONCE}","path":"/v1/agents/a:agent:b/freeze","timestamp":"1700000000"}`;
    expect(nodeVerify(canonical, signed.signature, keys.publicKey)).toBe(true);
    // Byte input gives the same hash as the string it encodes.
    const fromBytes = signRequest({ agentId: AGENT, method: 'POST', path: '/v1/agents/a:agent:b/freeze', body: Buffer.from(body), timestamp: '1700000000', nonce: NONCE, privateKey: keys.privateKey });
    expect(fromBytes.signature).toBe(signed.signature);
  });

  it('binds every field: another agent, path, timestamp, nonce or body does not verify', () => {
    const signed = signRequest({ agentId: AGENT, method: 'GET', path: '/v1/agents?limit=2', timestamp: '1700000000', nonce: NONCE, privateKey: keys.privateKey });
    const variant = (agent: string, path: string, ts: string, nonce: string, sha: string) =>
      `{"agent_id":"${agent}","body_sha256":"${sha}","method":"GET","nonce":"${nonce}","path":"${path}","timestamp":"${ts}"}`;
    expect(nodeVerify(variant(AGENT, '/v1/agents?limit=2', '1700000000', NONCE, EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(true);
    expect(nodeVerify(variant('acme:agent:other', '/v1/agents?limit=2', '1700000000', NONCE, EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(false);
    expect(nodeVerify(variant(AGENT, '/v1/agents', '1700000000', NONCE, EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(false);
    expect(nodeVerify(variant(AGENT, '/v1/agents?limit=2', '1700000001', NONCE, EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(false);
    expect(nodeVerify(variant(AGENT, '/v1/agents?limit=2', '1700000000', NONCE + 'x', EMPTY_SHA256), signed.signature, keys.publicKey)).toBe(false);
    expect(nodeVerify(variant(AGENT, '/v1/agents?limit=2', '1700000000', NONCE, nodeSha256Hex('{}')), signed.signature, keys.publicKey)).toBe(false);
  });

  it('makes a fresh URL-safe nonce per call unless one is given, and refuses a malformed one', () => {
    const input = { agentId: AGENT, method: 'GET', path: '/v1/agents', timestamp: '1700000000', privateKey: keys.privateKey };
    const a = signRequest(input);
    const b = signRequest(input);
    expect(a.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.signature).not.toBe(b.signature);
    expect(() => signRequest({ ...input, nonce: 'short' })).toThrow('nonce must be 16–64 characters');
    expect(() => signRequest({ ...input, nonce: 'a'.repeat(15) + '=' })).toThrow('nonce must be 16–64 characters');
  });

  it('agentSignatureHeaders names the agent and carries the same nonce and signature', () => {
    const input = { agentId: AGENT, method: 'GET', path: '/v1/agents', timestamp: '1700000000', nonce: NONCE, privateKey: keys.privateKey };
    expect(agentSignatureHeaders(input)).toEqual({
      'X-Agent-Id': AGENT,
      'X-Agent-Timestamp': '1700000000',
      'X-Agent-Nonce': NONCE,
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
