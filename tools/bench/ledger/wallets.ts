import { createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';

// The benchmark's wallets: agents registered through the gateway (as tools/bench/gateway does:
// node:crypto keys and the canonical registration proof), each funded by the sandbox faucet.

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function registrationBody(agentId: string) {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, randomBytes(32)]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  const pub = spki.subarray(spki.length - 32).toString('base64');
  const nonce = randomBytes(12).toString('hex');
  const proof = `{"agent_id":${JSON.stringify(agentId)},"primary_pubkey":${JSON.stringify(pub)},"proof_nonce":${JSON.stringify(nonce)}}`;
  return {
    agent_id: agentId,
    primary_pubkey: pub,
    pubkey_set: [],
    identity_level: 'SANDBOX_UNVERIFIED',
    proof_nonce: nonce,
    proof_signature: sign(null, Buffer.from(proof), key).toString('base64'),
  };
}

async function post(url: string, token: string, path: string, body: unknown, expected: number): Promise<void> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== expected) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

/** Registers `count` agents and credits each `amount` CREDIT; returns their ids. */
export async function createFundedWallets(url: string, token: string, count: number, amount: string): Promise<string[]> {
  const run = randomBytes(3).toString('hex');
  const ids = Array.from({ length: count }, (_, i) => `bench-${run}:agent:w${i}`);
  const inFlight = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < count; i = next++) {
        await post(url, token, '/v1/agents', registrationBody(ids[i]), 201);
        await post(url, token, `/v1/wallets/${encodeURIComponent(ids[i])}/faucet`, { amount, currency: 'CREDIT', category: 'bench', idempotency_key: `fund-${ids[i]}` }, 201);
      }
    }),
  );
  return ids;
}
