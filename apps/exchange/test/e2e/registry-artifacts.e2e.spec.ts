import { createHash } from 'node:crypto';
import { expectProblem } from './http';
import { MAX_ARTIFACT, RegistryHttp, randomContent } from './registry-http';
import { bootStack, type Stack } from './stack';

// Artifacts through the gateway: the access matrix, 25 MiB byte-exact both ways (JSON base64 and
// multipart), 25 MiB + 1 refused, takedown (451 with the reason) and reinstatement.

let stack: Stack;
let r: RegistryHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('registry artifacts', () => {
  it('access public | parties | operator × uploader, party, stranger, operator, anonymous', async () => {
    const uploader = await r.newAgent('art-uploader');
    const party = await r.newAgent('art-party');
    const stranger = await r.newAgent('art-stranger');
    const refs: Record<string, string> = {};
    for (const access of ['public', 'parties', 'operator'] as const) {
      const res = await r.uploadJson(uploader, randomContent(1024), { access, parties: [party.agentId], media_type: 'text/plain' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ access, status: 'active', uploaded_by: uploader.agentId, size_bytes: 1024, media_type: 'text/plain' });
      refs[access] = res.body.artifact_ref;
    }
    const expected: Record<string, Record<string, number>> = {
      // Anonymous: 401 whatever the access (DESIGN §3, issue 13 item 7); public = any authenticated agent.
      public: { uploader: 200, party: 200, stranger: 200, operator: 200, anon: 401 },
      parties: { uploader: 200, party: 200, stranger: 403, operator: 200, anon: 401 },
      operator: { uploader: 403, party: 403, stranger: 403, operator: 200, anon: 401 },
    };
    const who = { uploader, party, stranger, operator: 'operator' as const, anon: 'anon' as const };
    const got: Record<string, Record<string, number>> = {};
    for (const access of Object.keys(expected)) {
      got[access] = {};
      for (const name of Object.keys(expected[access]!)) {
        const res = await r.download(refs[access]!, who[name as keyof typeof who]);
        got[access]![name] = res.status;
        if (res.status === 403) expect(res.body).toMatchObject({ code: 'access_denied' });
        if (res.status === 401) expect(res.body).toMatchObject({ code: 'unauthenticated' });
      }
    }
    expect(got).toEqual(expected);
  });

  it('25 MiB round-trips byte-exact as JSON base64 and as multipart; 25 MiB + 1 is 413', async () => {
    const uploader = await r.newAgent('art-big');
    const big = randomContent(MAX_ARTIFACT);
    const json = await r.uploadJson(uploader, big, { access: 'parties' });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({ artifact_ref: `sha256:${sha256(big)}`, size_bytes: MAX_ARTIFACT });
    const down = await r.download(json.body.artifact_ref, uploader);
    expect(down.status).toBe(200);
    expect(down.headers.get('content-length')).toBe(String(MAX_ARTIFACT));
    expect(down.headers.get('x-artifact-ref')).toBe(json.body.artifact_ref);
    expect(sha256(down.bytes)).toBe(sha256(big));
    expect(down.bytes.equals(big)).toBe(true);

    const other = randomContent(MAX_ARTIFACT);
    const multi = await r.uploadMultipart(other, { media_type: 'application/octet-stream', access: 'parties' }, uploader.agentId);
    expect(multi.status).toBe(201);
    expect(multi.body).toMatchObject({ artifact_ref: `sha256:${sha256(other)}`, size_bytes: MAX_ARTIFACT, uploaded_by: uploader.agentId });
    const downMulti = await r.download(multi.body.artifact_ref, 'operator');
    expect(downMulti.bytes.equals(other)).toBe(true);

    const tooBig = randomContent(MAX_ARTIFACT + 1);
    expectProblem(await r.uploadJson('operator', tooBig), 413, 'payload_too_large');
    const tooBigMulti = await r.uploadMultipart(tooBig, { media_type: 'application/octet-stream' });
    expect({ status: tooBigMulti.status, code: tooBigMulti.body?.code }).toEqual({ status: 413, code: 'payload_too_large' });
    const missing = await r.download(`sha256:${sha256(tooBig)}`, 'operator');
    expect(missing.status).toBe(404);
  }, 240_000);

  it('takedown → 451 with the reason for everyone, reinstate → 200 again; wrong-state moves are 409', async () => {
    const uploader = await r.newAgent('art-takedown');
    // Any authenticated agent reads a public artifact; without credentials it is 401 (issue 13 item 7).
    const reader = await r.newAgent('art-takedown-reader');
    const content = randomContent(4096);
    const { artifact_ref: ref } = await r.expectStatus(r.uploadJson(uploader, content, { access: 'public' }), 201);
    const path = (verb: string) => `/v1/artifacts/${encodeURIComponent(ref)}/${verb}`;
    expectProblem(await r.as(uploader, 'POST', path('takedown'), { reason: 'copyright claim #7' }), 403, 'operator_token_required');
    const removed = await r.expectStatus(r.op('POST', path('takedown'), { reason: 'copyright claim #7' }), 200);
    expect(removed).toMatchObject({ status: 'removed', removed_reason: 'copyright claim #7' });
    expect(await r.download(ref, 'anon')).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    for (const who of [uploader, 'operator', reader] as const) {
      const res = await r.download(ref, who);
      expect(res.status).toBe(451);
      expect(res.body).toMatchObject({ code: 'artifact_removed' });
      expect(res.body.detail).toContain('copyright claim #7');
    }
    expectProblem(await r.op('POST', path('takedown'), { reason: 'again' }), 409, 'invalid_state');
    const back = await r.expectStatus(r.op('POST', path('reinstate'), { reason: 'claim withdrawn' }), 200);
    expect(back).toMatchObject({ status: 'active' });
    const res = await r.download(ref, reader);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(content)).toBe(true);
    expectProblem(await r.op('POST', path('reinstate'), { reason: 'again' }), 409, 'invalid_state');
  });
});
