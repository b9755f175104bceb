import { ExchangeApiError, ExchangeClient, type UploadArtifactInput } from '@exchange/sdk';
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RegistryHttp, randomContent } from './registry-http';
import { bootStack, type Stack } from './stack';

// Issue 12 finding 3: a multipart upload naming a victim in X-Agent-Id, signed by a key that is
// not the victim's, is refused (403) — and must leave nothing behind: no artifact (not
// downloadable, not in the contract's casefile), no staged or part file in the artifact store.
// The SDK signs the requests, so the forger is simply a client holding the wrong key.

let stack: Stack;
let r: RegistryHttp;

beforeAll(async () => {
  // 200 refused signatures from one IP for one claimed agent: the limits (per agent, and failed
  // authentications per IP) are not what is under test here. Its own Redis namespace, so that
  // these failures of 127.0.0.1 are not counted against the suites that run after it.
  stack = await bootStack({
    env: {
      RATE_LIMIT_SANDBOX_UNVERIFIED: '100000',
      RATE_LIMIT_ANONYMOUS: '100000',
      RATE_LIMIT_AUTH_FAILURES: '100000',
      RATE_LIMIT_REDIS_PREFIX: `e2e-forged-uploads-${randomBytes(4).toString('hex')}:`,
    },
  });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

const refOf = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Every file (not directory) under the artifact store, part and staging files included. */
async function storeFiles(): Promise<string[]> {
  const dir = join(stack.dataDir, 'artifacts');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ExchangeApiError) return { status: err.status, code: err.code };
    throw err;
  }
  return { status: 200, code: 'stored' };
}

async function casefileArtifactRefs(contractId: string): Promise<string[]> {
  const res = await r.expectStatus(r.op('POST', '/v1/casefiles/export', { subject: { contract_id: contractId } }), 200);
  return (res.docket.entries as Array<{ kind: string; ref: string }>).filter((e) => e.kind === 'artifact').map((e) => e.ref);
}

describe('forged multipart uploads (issue 12 finding 3)', () => {
  it('200 forged uploads with and without contract_id store nothing and leave no staging file; a genuine upload still works', async () => {
    const victim = await r.newAgent('forged-victim');
    const contract = await r.openContract(victim);
    const forger = new ExchangeClient({ baseUrl: stack.baseUrl, agent: { agentId: victim.agentId, privateKey: randomBytes(32) } });
    const upload = (content: Buffer, withContract: boolean): UploadArtifactInput => ({
      content,
      mediaType: 'application/octet-stream',
      access: 'public',
      encoding: 'multipart',
      ...(withContract ? { contractId: contract.contract_id as string } : {}),
    });

    // Small bodies and bodies of several 64 KiB messages, sent 10 at a time.
    const contents = Array.from({ length: 200 }, (_, i) => randomContent(i % 4 === 0 ? 300 * 1024 + i : 2048 + i));
    const outcomes: Array<{ status: number; code: string }> = [];
    for (let i = 0; i < contents.length; i += 10) {
      const batch = contents.slice(i, i + 10).map((c, j) => refusal(forger.artifacts.upload(upload(c, (i + j) % 2 === 0))));
      outcomes.push(...(await Promise.all(batch)));
    }
    expect(outcomes.filter((o) => o.status !== 403 || o.code !== 'agent_signature_invalid')).toEqual([]);

    const visible: string[] = [];
    for (const content of contents) {
      const down = await r.download(refOf(content), 'operator');
      if (down.status !== 404) visible.push(`${refOf(content)} → ${down.status}`);
    }
    expect(visible).toEqual([]);
    expect(await casefileArtifactRefs(contract.contract_id)).toEqual([]);
    expect(await storeFiles()).toEqual([]);

    // The victim's own signed upload is stored, linked to the contract, with nothing else beside it.
    const own = new ExchangeClient({ baseUrl: stack.baseUrl, agent: { agentId: victim.agentId, privateKey: victim.seed } });
    const content = randomContent(200 * 1024);
    const stored = await own.artifacts.upload(upload(content, true));
    expect(stored).toMatchObject({ artifact_ref: refOf(content), uploaded_by: victim.agentId, contract_id: contract.contract_id, size_bytes: content.length });
    expect(await casefileArtifactRefs(contract.contract_id)).toEqual([refOf(content)]);
    const down = await r.download(refOf(content), 'operator');
    expect(down.bytes.equals(content)).toBe(true);
    expect((await storeFiles()).map((f) => f.slice(-64))).toEqual([refOf(content).slice(7)]);
  }, 240_000);
});
