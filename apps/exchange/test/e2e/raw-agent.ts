import { createHash, createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';

// An agent written WITHOUT our SDK or crypto lib: node:crypto ed25519 and a hand-rolled
// canonical JSON, following only what /skill.md tells an agent to do.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export class RawAgent {
  readonly seed: Buffer;
  readonly publicKey: string;

  constructor(readonly agentId: string, seed: Buffer = randomBytes(32)) {
    this.seed = seed;
    const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
    this.publicKey = spki.subarray(spki.length - 32).toString('base64');
  }

  signBase64(message: string): string {
    const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, this.seed]), format: 'der', type: 'pkcs8' });
    return sign(null, Buffer.from(message, 'utf8'), key).toString('base64');
  }

  registrationBody(nonce = randomBytes(12).toString('hex')) {
    const proof = canonicalJson({ agent_id: this.agentId, primary_pubkey: this.publicKey, proof_nonce: nonce });
    return {
      agent_id: this.agentId,
      primary_pubkey: this.publicKey,
      pubkey_set: [] as string[],
      identity_level: 'SANDBOX_UNVERIFIED',
      proof_nonce: nonce,
      proof_signature: this.signBase64(proof),
    };
  }

  /** Headers of an agent-signed request (skill.md, "Sign your requests"): a fresh nonce per call. */
  signedHeaders(method: string, pathWithQuery: string, body: string | Buffer = '', timestamp = Math.floor(Date.now() / 1000), nonce = randomBytes(16).toString('base64url')) {
    const payload = canonicalJson({
      agent_id: this.agentId,
      method,
      path: pathWithQuery,
      timestamp: String(timestamp),
      nonce,
      body_sha256: createHash('sha256').update(body).digest('hex'),
    });
    return {
      'x-agent-id': this.agentId,
      'x-agent-timestamp': String(timestamp),
      'x-agent-nonce': nonce,
      'x-agent-signature': this.signBase64(payload),
    };
  }
}

/**
 * RFC 8785 canonical JSON for the values agents sign here (objects, arrays, strings, booleans,
 * integers): keys sorted, undefined members left out, no whitespace. A flat object of strings (the
 * request and registration proofs) comes out as `{"k":"v",...}` in key order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(',')}}`;
}

export function uniqueAgentId(name: string): string {
  return `e2e-${randomBytes(4).toString('hex')}:agent:${name}`;
}
