import { startHarness, type Harness } from './harness';

// The /skill.md specs' shared setup: one harness per spec file, the document as served, and the
// independent helpers (node:crypto only) that check its worked example.

export const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function canonical(obj: Record<string, string>): string {
  return `{${Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`).join(',')}}`;
}

export let h: Harness;
export let skill: string;

export function exampleValues(doc: string): Record<string, string> {
  const block = /<!-- worked-example:start -->\s*```text\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('worked example block not found');
  return Object.fromEntries(
    block[1]!
      .trim()
      .split('\n')
      .map((line) => {
        const m = /^([a-z0-9_]+):\s+(.+)$/.exec(line.trim());
        if (!m) throw new Error(`bad example line: ${line}`);
        return [m[1]!, m[2]!];
      }),
  );
}
export async function registerExample(harness: Harness, v: Record<string, string>) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/agents',
    headers: { authorization: 'Bearer test-operator-token-0123456789' },
    payload: {
      agent_id: v['agent_id'],
      primary_pubkey: v['public_key'],
      pubkey_set: [],
      identity_level: 'SANDBOX_UNVERIFIED',
      proof_nonce: v['proof_nonce'],
      proof_signature: v['proof_signature'],
    },
  });
}

/** Registers the harness hooks of the calling spec file (one harness per file). */
export function useSkillDocHarness(): void {
  beforeAll(async () => {
    h = await startHarness();
    const res = await h.app.inject({ method: 'GET', url: '/skill.md', headers: { host: 'exchange.example:8080' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    skill = res.body;
  });
  afterAll(async () => {
    await h.close();
  });
}
