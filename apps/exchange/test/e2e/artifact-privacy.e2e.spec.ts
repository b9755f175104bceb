import { createHash } from 'node:crypto';
import { expectProblem } from './http';
import type { RawAgent } from './raw-agent';
import { RegistryHttp, randomContent } from './registry-http';
import { bootStack, type Stack } from './stack';

// Issue 13 item 1: content addressing is a storage detail. Uploading bytes someone else already
// uploaded must not reveal who holds them or whom they shared them with, must keep the second
// uploader's own access settings, and must let each uploader read what it uploaded.

let stack: Stack;
let r: RegistryHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

const refOf = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe('artifact privacy: access is per upload', () => {
  let a: RawAgent;
  let p: RawAgent;
  let b: RawAgent;
  let q: RawAgent;
  let c: RawAgent;
  const content = randomContent(2048);
  const ref = refOf(content);

  beforeAll(async () => {
    [a, p, b, q, c] = await Promise.all(['priv-a', 'priv-p', 'priv-b', 'priv-q', 'priv-c'].map((n) => r.newAgent(n)));
  });

  it("a second uploader gets its own upload with its own metadata only; each reads its own; strangers read neither", async () => {
    const envelope = { algorithm: 'x25519-xsalsa20-poly1305', recipient_key_ids: ['a2V5LW9mLXA='] };
    const byA = await r.uploadJson(a, content, { media_type: 'application/pdf', access: 'parties', parties: [p.agentId], envelope });
    expect(byA.status).toBe(201);
    expect(byA.body).toMatchObject({ artifact_ref: ref, uploaded_by: a.agentId, access: 'parties', parties: [p.agentId], media_type: 'application/pdf' });

    // B uploads the same bytes, shared with Q only: B's metadata, nothing of A's or P's.
    const byB = await r.uploadJson(b, content, { media_type: 'text/plain', access: 'parties', parties: [q.agentId] });
    expect(byB.status).toBe(201);
    expect(byB.body).toMatchObject({ artifact_ref: ref, uploaded_by: b.agentId, access: 'parties', parties: [q.agentId], media_type: 'text/plain', contract_id: null });
    expect(byB.body.envelope).toBeNull();
    for (const secret of [a.agentId, p.agentId, envelope.recipient_key_ids[0]!]) expect(byB.text).not.toContain(secret);

    // An operator-only upload of the same bytes by C shows C's access, not A's or B's.
    const byC = await r.uploadJson(c, content, { media_type: 'text/csv', access: 'operator' });
    expect(byC.status).toBe(201);
    expect(byC.body).toMatchObject({ uploaded_by: c.agentId, access: 'operator', parties: [] });
    for (const other of [a, p, b, q]) expect(byC.text).not.toContain(other.agentId);

    // Each reads through its own upload (the media type says which); P reads A's, Q reads B's.
    const read = async (who: RawAgent) => {
      const res = await r.download(ref, who);
      return res.status === 200 ? { status: 200, type: res.headers.get('content-type'), same: res.bytes.equals(content) } : { status: res.status, code: res.body?.code };
    };
    expect(await read(a)).toEqual({ status: 200, type: 'application/pdf', same: true });
    expect(await read(b)).toEqual({ status: 200, type: 'text/plain', same: true });
    expect(await read(p)).toEqual({ status: 200, type: 'application/pdf', same: true });
    expect(await read(q)).toEqual({ status: 200, type: 'text/plain', same: true });
    // C's own upload is operator-only, and it is no party of A's or B's: nothing to read.
    expect(await read(c)).toEqual({ status: 403, code: 'access_denied' });
    const stranger = await r.newAgent('priv-stranger');
    expect(await read(stranger)).toEqual({ status: 403, code: 'access_denied' });

    // B again: idempotent, its own earlier upload.
    const again = await r.uploadJson(b, content, { media_type: 'image/png', access: 'public' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(byB.body);
    expect((await r.download(ref, stranger)).status).toBe(403);

    // The envelope is per upload too: P reads A's, B's own upload has none.
    const envelopePath = `/v1/artifacts/${encodeURIComponent(ref)}/envelope`;
    expect(await r.expectStatus(r.as(p, 'GET', envelopePath), 200)).toEqual({ artifact_ref: ref, envelope: { ...envelope, nonce: null } });
    expectProblem(await r.as(b, 'GET', envelopePath), 404, 'envelope_not_found');
    expectProblem(await r.as(stranger, 'GET', envelopePath), 403, 'access_denied');
  });

  it("delivery receipts and casefiles show each uploader only its own upload's downloads", async () => {
    const receipts = async (who: RawAgent) => {
      const res = await r.expectStatus(r.as(who, 'GET', `/v1/artifacts/${encodeURIComponent(ref)}/receipts`), 200);
      return [...new Set((res.data as Array<{ agent_id: string }>).map((x) => x.agent_id))].sort();
    };
    expect(await receipts(a)).toEqual([a.agentId, p.agentId].sort());
    expect(await receipts(p)).toEqual([a.agentId, p.agentId].sort());
    expect(await receipts(b)).toEqual([b.agentId, q.agentId].sort());
    const all = await r.expectStatus(r.op('GET', `/v1/artifacts/${encodeURIComponent(ref)}/receipts?limit=200`), 200);
    expect(new Set((all.data as Array<{ agent_id: string }>).map((x) => x.agent_id))).toEqual(new Set([a.agentId, p.agentId, b.agentId, q.agentId]));

    const docket = async (who: RawAgent) => {
      const res = await r.expectStatus(r.as(who, 'POST', '/v1/casefiles/export', { subject: { artifact_refs: [ref] }, include_payloads: false }), 200);
      return res.docket as { entries: Array<{ kind: string; ref: string; media_type?: string; content?: { agent_id: string } }> };
    };
    const dB = await docket(b);
    expect(dB.entries.find((e) => e.kind === 'artifact')).toMatchObject({ ref, media_type: 'text/plain' });
    expect([...new Set(dB.entries.filter((e) => e.kind === 'delivery_receipt').map((e) => e.content!.agent_id))].sort()).toEqual([b.agentId, q.agentId].sort());
    expect(JSON.stringify(dB)).not.toContain(a.agentId);
    expect(JSON.stringify(dB)).not.toContain(p.agentId);
  });

  it('a public upload of the same bytes is what a stranger reads; a takedown removes the content for every upload', async () => {
    const e = await r.newAgent('priv-e');
    const byE = await r.expectStatus(r.uploadJson(e, content, { media_type: 'text/markdown', access: 'public' }), 201);
    expect(byE).toMatchObject({ uploaded_by: e.agentId, access: 'public', parties: [] });
    const stranger = await r.newAgent('priv-stranger2');
    const got = await r.download(ref, stranger);
    expect([got.status, got.headers.get('content-type'), got.bytes.equals(content)]).toEqual([200, 'text/markdown', true]);
    // A still reads its own upload, not the public one.
    expect((await r.download(ref, a)).headers.get('content-type')).toBe('application/pdf');

    const path = (verb: string) => `/v1/artifacts/${encodeURIComponent(ref)}/${verb}`;
    await r.expectStatus(r.op('POST', path('takedown'), { reason: 'court order 13' }), 200);
    for (const who of [a, b, p, q, e, stranger]) {
      const res = await r.download(ref, who);
      expect({ who: who.agentId, status: res.status, code: res.body?.code }).toEqual({ who: who.agentId, status: 451, code: 'artifact_removed' });
    }
    await r.expectStatus(r.op('POST', path('reinstate'), { reason: 'order lifted' }), 200);
    expect((await r.download(ref, b)).status).toBe(200);
  });
});
