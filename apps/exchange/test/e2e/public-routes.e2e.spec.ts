import { expectProblem, http } from './http';
import { randomContent, RegistryHttp } from './registry-http';
import { bootStack, type Stack } from './stack';

// Issue 13 item 7, end to end: DESIGN §3 lists the only routes that answer without credentials
// (/health, /skill.md, /quickstart.md, /api-reference, /openapi.json, /.well-known/ucp, the page
// /ui/casefile and the two casefile verifiers). The reads the issue names — listing and reading
// objects, alias tokens, public artifacts and their envelopes, the attestation query — are 401
// anonymously and stay readable by any authenticated agent. (The gateway suite walks every
// /openapi.json operation for the same rule: apps/gateway/test/public-routes.spec.ts.)

let stack: Stack;
let r: RegistryHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

describe('anonymous callers', () => {
  it('get 401 unauthenticated (WWW-Authenticate: Bearer) from every read the issue names, even for public resources', async () => {
    const owner = await r.newAgent('pub-owner');
    const object = await r.expectStatus(r.storeObject(owner, r.objectBody(owner, { note: 'public note' }, { visibility: 'public', tags: ['pub-e2e'] })), 201);
    const attestation = await r.expectStatus(
      r.storeObject(owner, r.objectBody(owner, { subject_ref: object.object_id, claim: 'ok' }, { type: 'attestation', visibility: 'public' })),
      201,
    );
    const artifact = await r.expectStatus(
      r.uploadJson(owner, randomContent(256), { access: 'public', media_type: 'text/plain', envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipient_key_ids: [owner.publicKey] } }),
      201,
    );
    const ref = encodeURIComponent(artifact.artifact_ref);
    const id = encodeURIComponent(object.object_id);
    const reads: Array<[string, string, unknown?]> = [
      ['GET', '/v1/objects'],
      ['GET', '/v1/objects?tag=pub-e2e'],
      ['GET', `/v1/objects/${id}`],
      ['GET', `/v1/artifacts/${ref}`],
      ['GET', `/v1/artifacts/${ref}/envelope`],
      ['POST', '/v1/attestations/query', { subject_ref: object.object_id }],
      ['GET', `/v1/party_alias_tokens/${id}`],
      ['GET', '/v1/agents'],
      ['GET', `/v1/wallets/${owner.agentId}`],
    ];
    for (const [method, path, body] of reads) {
      const res = await r.anon(method, path, body);
      expectProblem(res, 401, 'unauthenticated');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="agent-exchange"');
    }

    // Any authenticated agent — not a party to anything — still reads the public ones.
    const reader = await r.newAgent('pub-reader');
    expect((await r.expectStatus(r.as(reader, 'GET', `/v1/objects/${id}`), 200)).object_id).toBe(object.object_id);
    const listed = await r.expectStatus(r.as(reader, 'GET', '/v1/objects?tag=pub-e2e&limit=200'), 200);
    expect(listed.data.map((o: { object_id: string }) => o.object_id)).toContain(object.object_id);
    const download = await r.download(artifact.artifact_ref, reader);
    expect(download.status).toBe(200);
    expect(download.headers.get('x-artifact-ref')).toBe(artifact.artifact_ref);
    expect(await r.expectStatus(r.as(reader, 'GET', `/v1/artifacts/${ref}/envelope`), 200)).toMatchObject({ artifact_ref: artifact.artifact_ref });
    const query = await r.expectStatus(r.as(reader, 'POST', '/v1/attestations/query', { subject_ref: object.object_id }), 200);
    expect(query.data.map((o: { object_id: string }) => o.object_id)).toEqual([attestation.object_id]);
  });

  it('read a party alias token only with credentials', async () => {
    const buyer = await r.newAgent('pub-alias-buyer');
    await r.fund(buyer, '150');
    const contract = await r.openContract(buyer);
    const token = await r.expectStatus(r.as(buyer, 'POST', '/v1/party_alias_tokens/mint', { contract_id: contract.contract_id, role: 'buyer' }), 201);
    const path = `/v1/party_alias_tokens/${encodeURIComponent(token.object_id)}`;
    expectProblem(await r.anon('GET', path), 401, 'unauthenticated');
    const reader = await r.newAgent('pub-alias-reader');
    expect(await r.expectStatus(r.as(reader, 'GET', path), 200)).toMatchObject({ object_id: token.object_id, type: 'party_alias_token' });
  });
});

describe('the public routes', () => {
  it('answer without credentials', async () => {
    for (const path of ['/health', '/skill.md', '/quickstart.md', '/openapi.json', '/ui/casefile']) {
      const res = await http(stack.baseUrl, 'GET', path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const reference = await fetch(`${stack.baseUrl}/api-reference`, { redirect: 'follow' });
    expect(reference.status).toBe(200);
    expect(await reference.text()).toContain('swagger');
  });

  it('serve the UCP platform profile, and take merchants\' order webhooks authenticated by their signature alone', async () => {
    const profile = await http(stack.baseUrl, 'GET', '/.well-known/ucp');
    expect(profile.status).toBe(200);
    const unsigned = await http(stack.baseUrl, 'POST', '/v1/commerce/ucp/webhooks/orders', { body: { id: 'ord_1' } });
    expect(expectProblem(unsigned, 401, 'webhook_unauthenticated')).toMatchObject({ reason: 'signature_missing' });
  });

  it('verify casefiles without credentials (an unreadable archive is 400, never 401)', async () => {
    expectProblem(await r.anon('POST', '/v1/casefiles/verify', { archive_base64: Buffer.from('not gzip').toString('base64') }), 400, 'casefile_unreadable');
    const ui = await http(stack.baseUrl, 'POST', '/ui/casefile/verify', { headers: { 'content-type': 'application/gzip' }, rawBody: 'not an archive' });
    expectProblem(ui, 400, 'casefile_unreadable');
  });

  it('document exactly that in /openapi.json: no other operation without security', async () => {
    const doc = (await http(stack.baseUrl, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    const anonymous = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ op: `${method.toUpperCase()} ${path}`, security: op.security })))
      .filter(({ security }) => !Array.isArray(security) || security.length === 0 || security.some((s) => Object.keys(s).length === 0))
      .map(({ op }) => op)
      .sort();
    expect(anonymous).toEqual([
      'GET /.well-known/ucp',
      'GET /api-reference',
      'GET /health',
      'GET /openapi.json',
      'GET /quickstart.md',
      'GET /skill.md',
      'POST /ui/casefile/verify',
      'POST /v1/casefiles/verify',
      'POST /v1/commerce/ucp/webhooks/orders',
    ]);
  });
});
