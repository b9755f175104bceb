// Agent keys and signatures for the load generator. The payloads come from @exchange/crypto (the
// exact rule the gateway checks); the ed25519 signing itself is node:crypto (OpenSSL), because the
// portable @noble signer would make the load generator, not the exchange, the bottleneck.
import { canonicalBytes, registrationProofPayload, requestSigningPayload, sha256Hex } from '@exchange/crypto';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function keyFromSeed(seedBase64: string): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seedBase64, 'base64')]), format: 'der', type: 'pkcs8' });
}

function rawPublicKey(key: KeyObject): string {
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32).toString('base64');
}

/** A fresh key pair: its seed (base64) and the `POST /v1/agents` body proving ownership of it. */
export function registration(agentId: string): { seed: string; body: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  const seed = pkcs8.subarray(pkcs8.length - 32).toString('base64');
  const primaryPubkey = rawPublicKey(privateKey);
  const proofNonce = randomBytes(16).toString('hex');
  const proof = canonicalBytes(registrationProofPayload({ agent_id: agentId, primary_pubkey: primaryPubkey, proof_nonce: proofNonce }));
  const body = JSON.stringify({
    agent_id: agentId,
    primary_pubkey: primaryPubkey,
    pubkey_set: [],
    identity_level: 'SANDBOX_UNVERIFIED',
    proof_nonce: proofNonce,
    proof_signature: sign(null, proof, privateKey).toString('base64'),
  });
  return { seed, body };
}

/** The four X-Agent-* headers of one request, with a fresh nonce (DESIGN §3). */
export function signedHeaders(agentId: string, key: KeyObject, method: string, path: string, body = ''): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('base64url');
  const payload = requestSigningPayload({ agent_id: agentId, method, path, timestamp, nonce, body_sha256: sha256Hex(body) });
  return {
    'x-agent-id': agentId,
    'x-agent-timestamp': timestamp,
    'x-agent-nonce': nonce,
    'x-agent-signature': sign(null, canonicalBytes(payload), key).toString('base64'),
  };
}
