import { randomBytes } from 'node:crypto';
import { crowdedArchive, zeroPayloadArchive } from '@exchange/testing';
import { expectProblem, http, type HttpResult } from './http';
import { RegistryHttp, randomContent } from './registry-http';
import { bootStack, type Stack } from './stack';

// Issue 12 finding 8: hostile archives on the public verifiers. A gzip bomb (a small archive that
// inflates to ~300 MiB) and an archive of too many members are refused with 413 while the exchange
// keeps answering; a genuine archive still verifies; anonymous verification has a per-IP budget
// (429 with Retry-After). Work per request is bounded in libs/casefile (archive-reader.spec.ts
// asserts the bytes pulled); `tools/bench/casefile-bomb` measures latency and memory.

const ANON_BUDGET = 6;
let stack: Stack;
let r: RegistryHttp;

beforeAll(async () => {
  stack = await bootStack({
    // Its own Redis namespace: the per-IP counters of 127.0.0.1 are not shared with other suites.
    env: { RATE_LIMIT_CASEFILE_VERIFY: String(ANON_BUDGET), RATE_LIMIT_REDIS_PREFIX: `e2e-casefile-limits-${randomBytes(4).toString('hex')}:` },
  });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

let bomb: Buffer;
let crowded: Buffer;

beforeAll(async () => {
  // One 300 MiB payload of zeros: ~300 KiB of gzip.
  bomb = await zeroPayloadArchive(300);
  // 20 000 empty members: past the 10 000 member cap.
  crowded = await crowdedArchive(20_000);
}, 60_000);

/** Anonymous verifications made so far (they count against this IP's budget). */
let anonymousCalls = 0;

async function ui(bytes: Buffer): Promise<HttpResult> {
  anonymousCalls += 1;
  const res = await fetch(`${stack.baseUrl}/ui/casefile/verify`, { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: bytes });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : text, text };
}

function anonymousJson(body: unknown): Promise<HttpResult> {
  anonymousCalls += 1;
  return http(stack.baseUrl, 'POST', '/v1/casefiles/verify', { body });
}

/** With the operator token: outside the anonymous budget. */
const asJson = (bytes: Buffer) => r.op('POST', '/v1/casefiles/verify', { archive_base64: bytes.toString('base64') });

describe('casefile verification limits (issue 12 finding 8)', () => {
  it('refuses bombs (8 at once) and over-crowded archives with 413 while /health keeps answering; a genuine archive still verifies', async () => {
    expect(bomb.length).toBeLessThan(512 * 1024);
    const [health, ...refused] = await Promise.all([
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return http(stack.baseUrl, 'GET', '/health');
      })(),
      ...Array.from({ length: 8 }, () => asJson(bomb)),
      asJson(crowded),
    ]);
    expect(health.status).toBe(200);
    for (const res of refused) expectProblem(res, 413, 'payload_too_large');
    expect(refused.map((res) => res.body.detail)).toEqual([...Array(8).fill('archive expands more than 20 times its compressed size'), 'archive has more than 10000 files']);

    // Anonymous, on the raw-archive route: the same answers.
    expectProblem(await ui(bomb), 413, 'payload_too_large');
    expectProblem(await ui(crowded), 413, 'payload_too_large');

    const content = randomContent(64 * 1024);
    const artifact = await r.expectStatus(r.uploadJson('operator', content, { access: 'public' }), 201);
    const exported = await r.expectStatus(r.op('POST', '/v1/casefiles/export', { subject: { artifact_refs: [artifact.artifact_ref] }, include_payloads: true }), 200);
    const archive = Buffer.from(exported.archive_base64, 'base64');
    const verdict = await ui(archive);
    expect({ status: verdict.status, valid: verdict.body.valid }).toEqual({ status: 200, valid: true });
    expect((await asJson(archive)).body.valid).toBe(true);
  }, 120_000);

  it(`answers 429 with Retry-After past ${ANON_BUDGET} anonymous verifications per IP across both routes; the operator is not in that budget`, async () => {
    const left = ANON_BUDGET - anonymousCalls;
    const statuses: number[] = [];
    let refusal: HttpResult | undefined;
    for (let i = 0; i <= left; i++) {
      const res = i % 2 === 0 ? await ui(Buffer.from('not an archive')) : await anonymousJson({ archive_base64: 'AAAA' });
      statuses.push(res.status);
      refusal = res;
    }
    expect(statuses).toEqual([...Array(left).fill(400), 429]);
    const problem = expectProblem(refusal!, 429, 'rate_limited');
    expect(problem.detail).toMatch(/anonymous casefile verification/);
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await asJson(Buffer.from('not an archive'))).status).toBe(400);
  });
});
