import { canonicalize, sha256Hex } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { identityV1, marketV1, registryV1 } from '@exchange/proto';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { FAKE_MAX_BYTES } from './fake-registry';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// The registry areas (Registry objects, Artifacts, Attestations/receipts/casefiles, alias reads,
// the casefile UI) through app.inject() against real grpc-js servers (fake identity, market and
// registry): HTTP ⇄ gRPC mapping, acting agent, anonymous reads, streamed uploads/downloads,
// size limits and error mapping.

const R = registryV1;
let h: Harness;
let alice: TestAgent;
let bob: TestAgent;
/** Registered, party to nothing: what "any authenticated agent" may read (issue 13: reads need credentials). */
let carol: TestAgent;
const SIG = 'q3b1xB2p6oX0rVd8mW4m3z5cYVZ0k8w5Jm9T2Kc1cYb3oQm0d3n6eWfV3u2Hc1hY3l6r8wqQ0n2Xb8Qw3r5aAw==';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeAll(async () => {
  h = await startHarness();
  alice = new TestAgent(uniqueAgentId('alice'));
  bob = new TestAgent(uniqueAgentId('bob'));
  await registerAgent(h.app, alice);
  await registerAgent(h.app, bob);
  carol = new TestAgent(uniqueAgentId('carol'));
  await registerAgent(h.app, carol);
});

afterAll(async () => {
  await h.close();
});

function signed(agent: TestAgent, method: 'GET' | 'POST', url: string, body?: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return h.app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: text }),
  });
}
const asOperator = (method: 'GET' | 'POST', url: string, payload?: unknown, extra: Record<string, string> = {}) =>
  h.app.inject({ method, url, headers: operator(extra), ...(payload === undefined ? {} : { payload: payload as object }) });
const anonymous = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  h.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A multipart/form-data body: fields in order, then (optionally) the file part. */
function form(fields: Array<[string, string]>, file?: { name?: string; bytes: Buffer; type?: string }, fieldsAfter: Array<[string, string]> = []) {
  const boundary = `----exchange${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  const field = ([name, value]: [string, string]) =>
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  fields.forEach(field);
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'file'}"; filename="data.bin"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  fieldsAfter.forEach(field);
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function signedMultipart(agent: TestAgent, url: string, f: { body: Buffer; contentType: string }, signedBody: Buffer = f.body) {
  // The raw bytes are signed (signedHeaders hashes them as given).
  const headers = agent.signedHeaders('POST', url, signedBody);
  return h.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': f.contentType }, payload: f.body });
}

const refOf = (bytes: Buffer) => `sha256:${sha256Hex(bytes)}`;

describe('POST /v1/objects', () => {
  it('should store a signed object as the acting agent: 201 with Location, then 200 for the same object', async () => {
    const body = { type: 'attestation', payload: { subject_ref: 'x', claim: 'ok', n: 1 }, signature: SIG, tags: ['review'] };
    const res = await signed(alice, 'POST', '/v1/objects', body);
    expect(res.statusCode).toBe(201);
    const call = h.registry.lastCall<registryV1.StoreObjectRequest>('storeObject');
    expect(call.request).toEqual({
      type: 'attestation',
      payloadJson: canonicalize(body.payload),
      signerAgentId: alice.agentId,
      signature: SIG,
      visibility: R.Visibility.VISIBILITY_PUBLIC,
      parties: [],
      tags: ['review'],
    });
    expect(call.ctx).toMatchObject({ actor: `agent:${alice.agentId}`, agentId: alice.agentId });
    const object = res.json();
    expect(object).toEqual({
      object_id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      type: 'attestation',
      payload: body.payload,
      signer_agent_id: alice.agentId,
      signature: SIG,
      signer_public_key: 'fake-public-key',
      visibility: 'public',
      parties: [],
      tags: ['review'],
      created_at: expect.stringMatching(ISO),
    });
    expect(res.headers.location).toBe(`/v1/objects/${object.object_id}`);
    const again = await signed(alice, 'POST', '/v1/objects', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(object);
  });

  it('should refuse a signer other than the acting agent (403 acting_agent_mismatch) without calling the registry', async () => {
    const before = h.registry.calls.length;
    const res = await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: 1, signature: SIG, signer_agent_id: bob.agentId });
    expectProblem(res, 403, 'acting_agent_mismatch');
    expect(h.registry.calls.length).toBe(before);
  });

  it('should need signer_agent_id from an operator without X-Agent-Id, and pass it with one', async () => {
    expectProblem(await asOperator('POST', '/v1/objects', { type: 'note', payload: 1, signature: SIG }), 400, 'validation_failed');
    const res = await asOperator('POST', '/v1/objects', { type: 'note', payload: [1], signature: SIG, visibility: 'operator' }, { 'x-agent-id': bob.agentId });
    expect(res.statusCode).toBe(201);
    expect(h.registry.lastCall('storeObject').ctx).toMatchObject({ actor: 'operator:default', agentId: bob.agentId });
    expect(res.json()).toMatchObject({ signer_agent_id: bob.agentId, visibility: 'operator' });
  });

  it('should map object_signature_invalid to 400, reserved_type to 403, and refuse bad shapes (400)', async () => {
    expectProblem(await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: 2, signature: 'bad' }), 400, 'object_signature_invalid');
    expectProblem(await signed(alice, 'POST', '/v1/objects', { type: 'party_alias_token', payload: 2, signature: SIG }), 403, 'reserved_type');
    expectProblem(await signed(alice, 'POST', '/v1/objects', { type: 'Bad Type', payload: 2, signature: SIG }), 400, 'validation_failed');
    expectProblem(await signed(alice, 'POST', '/v1/objects', { type: 'note', signature: SIG }), 400, 'validation_failed');
    expectProblem(await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: 2, signature: SIG, extra: 1 }), 400, 'validation_failed');
    expectProblem(await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: 2, signature: SIG, tags: ['UPPER'] }), 400, 'validation_failed');
  });

  it('should answer 401 without credentials', async () => {
    expectProblem(await anonymous('POST', '/v1/objects', { type: 'note', payload: 1, signature: SIG }), 401, 'unauthenticated');
  });
});

describe('GET /v1/objects/{object_id}', () => {
  let publicId: string;
  let partiesId: string;
  beforeAll(async () => {
    publicId = (await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: { p: 'public' }, signature: SIG })).json().object_id;
    partiesId = (await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: { p: 'parties' }, signature: SIG, visibility: 'parties', parties: [bob.agentId] })).json().object_id;
  });

  it('should serve a public object to any authenticated agent, and nothing without credentials (401, registry not asked)', async () => {
    const res = await signed(carol, 'GET', `/v1/objects/${publicId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object_id: publicId, payload: { p: 'public' } });
    expect(h.registry.lastCall('getObject').ctx).toMatchObject({ actor: `agent:${carol.agentId}`, agentId: carol.agentId });
    const calls = h.registry.calls.length;
    expectProblem(await anonymous('GET', `/v1/objects/${publicId}`), 401, 'unauthenticated');
    expect(h.registry.calls.length).toBe(calls);
  });

  it('should apply the parties visibility: 401 anonymous, 200 for a listed party and the operator, 403 access_denied for others', async () => {
    expectProblem(await anonymous('GET', `/v1/objects/${partiesId}`), 401, 'unauthenticated');
    expectProblem(await signed(carol, 'GET', `/v1/objects/${partiesId}`), 403, 'access_denied');
    expect((await signed(bob, 'GET', `/v1/objects/${partiesId}`)).statusCode).toBe(200);
    expect((await asOperator('GET', `/v1/objects/${partiesId}`)).statusCode).toBe(200);
    const stranger = new TestAgent(uniqueAgentId('stranger'));
    await registerAgent(h.app, stranger);
    expectProblem(await signed(stranger, 'GET', `/v1/objects/${partiesId}`), 403, 'access_denied');
  });

  it('should answer 404 object_not_found, and 400 for a malformed id', async () => {
    expectProblem(await signed(carol, 'GET', `/v1/objects/sha256:${'0'.repeat(64)}`), 404, 'object_not_found');
    expectProblem(await signed(carol, 'GET', '/v1/objects/not-an-id'), 400, 'validation_failed');
  });

  it('should refuse a wrong agent signature on a read of a public object (403)', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/v1/objects/${publicId}`, headers: { ...alice.signedHeaders('GET', '/other') } });
    expectProblem(res, 403, 'agent_signature_invalid');
  });
});

describe('GET /v1/objects', () => {
  it('should pass type, tag and the page, and list only what the caller may see', async () => {
    expectProblem(await anonymous('GET', '/v1/objects?type=note&limit=5'), 401, 'unauthenticated');
    const res = await signed(carol, 'GET', '/v1/objects?type=note&limit=5');
    expect(res.statusCode).toBe(200);
    expect(h.registry.lastCall<registryV1.ListObjectsRequest>('listObjects').request).toEqual({ page: { limit: 5, cursor: '' }, type: 'note', tag: undefined });
    const body = res.json();
    expect(body.next_cursor).toBeNull();
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((o: { visibility: string }) => o.visibility === 'public')).toBe(true);
    const all = (await asOperator('GET', '/v1/objects?type=note')).json().data;
    expect(all.length).toBeGreaterThan(body.data.length);
  });
});

describe('POST /v1/artifacts', () => {
  it('should stream JSON base64 content to the registry: 201 Artifact with Location, 200 for the same bytes', async () => {
    const bytes = randomBytes(200_000); // several 64 KiB chunks
    const body = { content_base64: bytes.toString('base64'), media_type: 'application/octet-stream', parties: [bob.agentId] };
    const res = await signed(alice, 'POST', '/v1/artifacts', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      artifact_ref: refOf(bytes),
      size_bytes: bytes.length,
      media_type: 'application/octet-stream',
      contract_id: null,
      access: 'parties',
      parties: [bob.agentId],
      envelope: null,
      status: 'active',
      removed_reason: null,
      uploaded_by: alice.agentId,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(res.headers.location).toBe(`/v1/artifacts/${refOf(bytes)}`);
    expect(h.registry.artifacts.get(refOf(bytes))!.bytes.equals(bytes)).toBe(true);
    expect(h.registry.lastCall<registryV1.ArtifactMetadata>('uploadArtifact').request).toEqual({
      mediaType: 'application/octet-stream',
      contractId: undefined,
      access: R.Visibility.VISIBILITY_PARTIES,
      parties: [bob.agentId],
      envelope: undefined,
    });
    const again = await signed(alice, 'POST', '/v1/artifacts', body);
    expect(again.statusCode).toBe(200);
  });

  it('should answer 413 payload_too_large for content over 25 MiB before calling the registry, and 400 for empty content', async () => {
    const before = h.registry.calls.length;
    const res = await asOperator('POST', '/v1/artifacts', { content_base64: Buffer.alloc(FAKE_MAX_BYTES + 1).toString('base64'), media_type: 'text/plain' });
    expectProblem(res, 413, 'payload_too_large');
    expectProblem(await asOperator('POST', '/v1/artifacts', { content_base64: '', media_type: 'text/plain' }), 400, 'validation_failed');
    expect(h.registry.calls.length).toBe(before);
  }, 60_000);

  it('should accept exactly 25 MiB as JSON base64, byte-exact', async () => {
    const bytes = randomBytes(FAKE_MAX_BYTES);
    const res = await asOperator('POST', '/v1/artifacts', { content_base64: bytes.toString('base64'), media_type: 'application/octet-stream', access: 'public' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ artifact_ref: refOf(bytes), size_bytes: FAKE_MAX_BYTES, uploaded_by: null });
    expect(h.registry.artifacts.get(refOf(bytes))!.bytes.equals(bytes)).toBe(true);
  }, 60_000);

  it('should stream a multipart upload (operator) with fields first, repeated parties and a flattened envelope', async () => {
    const bytes = randomBytes(150_000);
    const f = form(
      [['media_type', 'image/png'], ['access', 'parties'], ['parties', alice.agentId], ['parties', bob.agentId], ['algorithm', 'x25519-xsalsa20-poly1305'], ['recipient_key_ids', '["a2V5MQ==","a2V5Mg=="]'], ['nonce', 'bm9uY2U=']],
      { bytes },
    );
    const res = await h.app.inject({ method: 'POST', url: '/v1/artifacts', headers: { ...operator(), 'content-type': f.contentType }, payload: f.body });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      artifact_ref: refOf(bytes),
      size_bytes: bytes.length,
      media_type: 'image/png',
      parties: [alice.agentId, bob.agentId],
      envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipient_key_ids: ['a2V5MQ==', 'a2V5Mg=='], nonce: 'bm9uY2U=' },
    });
    expect(h.registry.artifacts.get(refOf(bytes))!.bytes.equals(bytes)).toBe(true);
  });

  it('should verify an agent signature over the raw multipart body before the registry commits', async () => {
    const bytes = randomBytes(100_000);
    const f = form([['media_type', 'text/plain']], { bytes });
    const ok = await signedMultipart(alice, '/v1/artifacts', f);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ artifact_ref: refOf(bytes), uploaded_by: alice.agentId });

    const other = randomBytes(100_000);
    const g = form([['media_type', 'text/plain']], { bytes: other });
    const aborted = h.registry.abortedUploads;
    const bad = await signedMultipart(alice, '/v1/artifacts', g, Buffer.from('something else'));
    expectProblem(bad, 403, 'agent_signature_invalid');
    expect(h.registry.artifacts.has(refOf(other))).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.registry.abortedUploads).toBeGreaterThan(aborted);
  });

  it('should accept exactly 25 MiB as multipart and refuse 25 MiB + 1 with 413, storing nothing', async () => {
    const bytes = randomBytes(FAKE_MAX_BYTES);
    const f = form([['media_type', 'application/octet-stream']], { bytes });
    const res = await h.app.inject({ method: 'POST', url: '/v1/artifacts', headers: { ...operator(), 'content-type': f.contentType }, payload: f.body });
    expect(res.statusCode).toBe(201);
    expect(h.registry.artifacts.get(refOf(bytes))!.bytes.equals(bytes)).toBe(true);

    const big = Buffer.concat([bytes, Buffer.from([7])]);
    const g = form([['media_type', 'application/octet-stream']], { bytes: big });
    const tooBig = await h.app.inject({ method: 'POST', url: '/v1/artifacts', headers: { ...operator(), 'content-type': g.contentType }, payload: g.body });
    expectProblem(tooBig, 413, 'payload_too_large');
    expect(h.registry.artifacts.has(refOf(big))).toBe(false);
  }, 60_000);

  it('should refuse fields after the file, a missing file, unknown fields and invalid field values (400)', async () => {
    const bytes = randomBytes(10);
    const send = (f: { body: Buffer; contentType: string }) =>
      h.app.inject({ method: 'POST', url: '/v1/artifacts', headers: { ...operator(), 'content-type': f.contentType }, payload: f.body });
    expectProblem(await send(form([], { bytes }, [['media_type', 'text/plain']])), 400, 'validation_failed');
    expectProblem(await send(form([['media_type', 'text/plain']])), 400, 'validation_failed');
    expectProblem(await send(form([['media_type', 'text/plain'], ['colour', 'red']], { bytes })), 400, 'validation_failed');
    expectProblem(await send(form([['media_type', 'text/plain'], ['access', 'everyone']], { bytes })), 400, 'validation_failed');
    expectProblem(await send(form([['media_type', 'text/plain']], { bytes: Buffer.alloc(0) })), 400, 'validation_failed');
  });

  it('should answer 400 problem+json to a missing, empty or shapeless body and to broken multipart, storing nothing (issue 12 finding 6)', async () => {
    const stored = h.registry.artifacts.size;
    const post = (headers: Record<string, string>, payload?: string | Buffer) =>
      h.app.inject({ method: 'POST', url: '/v1/artifacts', headers: { ...operator(), ...headers }, ...(payload === undefined ? {} : { payload }) });
    const boundary = 'b0undary';
    const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const statuses: Array<[string, number, string]> = [];
    const cases: Array<[string, Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>]> = [
      ['no body, no content type', post({})],
      ['agent-signed, no body', h.app.inject({ method: 'POST', url: '/v1/artifacts', headers: alice.signedHeaders('POST', '/v1/artifacts', '') })],
      ['empty content type', post({ 'content-type': '' }, '{"media_type":"text/plain"}')],
      ['JSON null', post({ 'content-type': 'application/json' }, 'null')],
      ['JSON array', post({ 'content-type': 'application/json' }, '[]')],
      ['JSON string', post({ 'content-type': 'application/json' }, '"x"')],
      ['multipart without a boundary', post({ 'content-type': 'multipart/form-data' }, `--${boundary}--\r\n`)],
      ['multipart with no part', post(multipart, `--${boundary}--\r\n`)],
      ['multipart with an empty body', post(multipart, '')],
      ['multipart cut short', post(multipart, `--${boundary}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\ntext/plain\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc`)],
      ['multipart part without a name', post(multipart, `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--\r\n`)],
    ];
    for (const [name, pending] of cases) {
      const res = await pending;
      const type = String(res.headers['content-type'] ?? '');
      statuses.push([name, res.statusCode, type.startsWith('application/problem+json') ? 'problem' : type]);
    }
    expect(statuses.filter(([, status, type]) => status !== 400 || type !== 'problem')).toEqual([]);
    expect(h.registry.artifacts.size).toBe(stored);
  });
});

describe('GET /v1/artifacts/{artifact_ref}', () => {
  it('should stream the bytes with Content-Type, Content-Length, ETag and X-Artifact-Ref, and write a receipt for an agent', async () => {
    const bytes = randomBytes(300_000);
    const ref = (await signed(alice, 'POST', '/v1/artifacts', { content_base64: bytes.toString('base64'), media_type: 'application/pdf', parties: [bob.agentId] })).json().artifact_ref;
    const res = await signed(bob, 'GET', `/v1/artifacts/${ref}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'content-type': 'application/pdf', 'content-length': String(bytes.length), etag: `"${ref}"`, 'x-artifact-ref': ref });
    expect(res.rawPayload.equals(bytes)).toBe(true);

    const receipts = await signed(alice, 'GET', `/v1/artifacts/${ref}/receipts`);
    expect(receipts.statusCode).toBe(200);
    expect(receipts.json()).toEqual({
      data: [
        {
          delivery_receipt_id: expect.stringMatching(/^dlv_/),
          artifact_ref: ref,
          agent_id: bob.agentId,
          size_bytes: bytes.length,
          delivered_at: expect.stringMatching(ISO),
          signature: 'exchange-signature',
          signer_public_key: 'exchange-public-key',
        },
      ],
      next_cursor: null,
    });
    expectProblem(await signed(carol, 'GET', `/v1/artifacts/${ref}`), 403, 'access_denied');
    expectProblem(await anonymous('GET', `/v1/artifacts/${ref}`), 401, 'unauthenticated');
  });

  it('should answer 404 artifact_not_found', async () => {
    expectProblem(await asOperator('GET', `/v1/artifacts/sha256:${'1'.repeat(64)}`), 404, 'artifact_not_found');
  });
});

describe('POST /v1/artifacts/{artifact_ref}/takedown', () => {
  it('should take down (451 artifact_removed with the reason), refuse a second takedown (409) and reinstate (200)', async () => {
    const bytes = randomBytes(1000);
    const ref = (await asOperator('POST', '/v1/artifacts', { content_base64: bytes.toString('base64'), media_type: 'text/plain', access: 'public' })).json().artifact_ref;
    expectProblem(await signed(alice, 'POST', `/v1/artifacts/${ref}/takedown`, { reason: 'x' }), 403, 'operator_token_required');
    const down = await asOperator('POST', `/v1/artifacts/${ref}/takedown`, { reason: 'DMCA notice 117' });
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ artifact_ref: ref, status: 'removed', removed_reason: 'DMCA notice 117' });
    const gone = await signed(carol, 'GET', `/v1/artifacts/${ref}`);
    const problemBody = expectProblem(gone, 451, 'artifact_removed');
    expect(problemBody.detail).toContain('DMCA notice 117');
    expect(problemBody.title).toBe('Unavailable For Legal Reasons');
    expectProblem(await asOperator('POST', `/v1/artifacts/${ref}/takedown`, { reason: 'again' }), 409, 'invalid_state');
    expectProblem(await asOperator('POST', `/v1/artifacts/${ref}/takedown`, {}), 400, 'validation_failed');
    const back = await asOperator('POST', `/v1/artifacts/${ref}/reinstate`, { reason: 'counter-notice' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ status: 'active', removed_reason: null });
    expect((await signed(carol, 'GET', `/v1/artifacts/${ref}`)).rawPayload.equals(bytes)).toBe(true);
    expectProblem(await anonymous('GET', `/v1/artifacts/${ref}`), 401, 'unauthenticated');
  });
});

describe('POST /v1/artifacts/{artifact_ref}/reinstate', () => {
  it('should answer 409 invalid_state for an active artifact and 404 for an unknown one', async () => {
    const ref = (await asOperator('POST', '/v1/artifacts', { content_base64: randomBytes(10).toString('base64'), media_type: 'text/plain' })).json().artifact_ref;
    expectProblem(await asOperator('POST', `/v1/artifacts/${ref}/reinstate`, { reason: 'r' }), 409, 'invalid_state');
    expectProblem(await asOperator('POST', `/v1/artifacts/sha256:${'2'.repeat(64)}/reinstate`, { reason: 'r' }), 404, 'artifact_not_found');
  });
});

describe('GET /v1/artifacts/{artifact_ref}/envelope', () => {
  it('should return the envelope, or 404 envelope_not_found', async () => {
    const envelope = { algorithm: 'x25519-xsalsa20-poly1305', recipient_key_ids: ['a2V5'] };
    const ref = (await signed(alice, 'POST', '/v1/artifacts', { content_base64: randomBytes(20).toString('base64'), media_type: 'application/octet-stream', envelope })).json().artifact_ref;
    const res = await signed(alice, 'GET', `/v1/artifacts/${ref}/envelope`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ artifact_ref: ref, envelope: { ...envelope, nonce: null } });
    const plain = (await signed(alice, 'POST', '/v1/artifacts', { content_base64: randomBytes(20).toString('base64'), media_type: 'text/plain' })).json().artifact_ref;
    expectProblem(await signed(alice, 'GET', `/v1/artifacts/${plain}/envelope`), 404, 'envelope_not_found');
  });
});

describe('POST /v1/artifacts/{artifact_ref}/acks', () => {
  it('should ack as the acting agent (201, then 200) and refuse another agent_id (403)', async () => {
    const ref = (await signed(alice, 'POST', '/v1/artifacts', { content_base64: randomBytes(30).toString('base64'), media_type: 'text/plain', parties: [bob.agentId] })).json().artifact_ref;
    const first = await signed(bob, 'POST', `/v1/artifacts/${ref}/acks`, { signature: SIG });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ ack_id: expect.stringMatching(/^ack_/), artifact_ref: ref, agent_id: bob.agentId, signature: SIG, created_at: expect.stringMatching(ISO) });
    expect(h.registry.lastCall('ackArtifact').request).toEqual({ artifactRef: ref, agentId: bob.agentId, signature: SIG });
    const again = await signed(bob, 'POST', `/v1/artifacts/${ref}/acks`, { signature: SIG });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expectProblem(await signed(bob, 'POST', `/v1/artifacts/${ref}/acks`, { agent_id: alice.agentId, signature: SIG }), 403, 'acting_agent_mismatch');
  });
});

describe('GET /v1/artifacts/{artifact_ref}/receipts', () => {
  it('should need credentials (401) and map the page', async () => {
    const ref = (await asOperator('POST', '/v1/artifacts', { content_base64: randomBytes(30).toString('base64'), media_type: 'text/plain', access: 'public' })).json().artifact_ref;
    expectProblem(await anonymous('GET', `/v1/artifacts/${ref}/receipts`), 401, 'unauthenticated');
    const res = await asOperator('GET', `/v1/artifacts/${ref}/receipts?limit=10`);
    expect(res.json()).toEqual({ data: [], next_cursor: null });
    expect(h.registry.lastCall('listDeliveryReceipts').request).toEqual({ artifactRef: ref, page: { limit: 10, cursor: '' } });
  });
});

describe('POST /v1/attestations/query', () => {
  it('should pass the filters (dates as timestamps) and answer a page of objects', async () => {
    await signed(alice, 'POST', '/v1/objects', { type: 'attestation', payload: { subject_ref: 'sha256:x', claim: 'good' }, signature: SIG });
    const query = { subject_ref: 'sha256:x', from: '2026-01-01T00:00:00.000Z', limit: 3 };
    expectProblem(await anonymous('POST', '/v1/attestations/query', query), 401, 'unauthenticated');
    const res = await signed(carol, 'POST', '/v1/attestations/query', query);
    expect(res.statusCode).toBe(200);
    expect(h.registry.lastCall('queryAttestations').request).toEqual({
      subjectRef: 'sha256:x',
      signerAgentId: undefined,
      from: new Date('2026-01-01T00:00:00.000Z'),
      to: undefined,
      page: { limit: 3, cursor: '' },
    });
    expect(res.json().data.some((o: { type: string }) => o.type === 'attestation')).toBe(true);
    expectProblem(await signed(carol, 'POST', '/v1/attestations/query', { from: 'yesterday' }), 400, 'validation_failed');
  });
});

describe('POST /v1/attestations/export', () => {
  it('should answer {docket, archive_base64}', async () => {
    const res = await signed(alice, 'POST', '/v1/attestations/export', { signer_agent_id: alice.agentId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      docket: { docket_id: 'dkt_fake', subject: { kind: 'attestations' }, entries: [], created_at: '2026-11-21T18:00:00.000Z', exchange_pubkey: 'k', signature: 's' },
      archive_base64: Buffer.from('fake archive').toString('base64'),
    });
    expect(h.registry.lastCall('exportAttestations').request).toMatchObject({ signerAgentId: alice.agentId });
  });
});

describe('POST /v1/receipts/export', () => {
  it('should take receipt_ids or contract_id (exactly one)', async () => {
    const res = await asOperator('POST', '/v1/receipts/export', { contract_id: 'ctr_1' });
    expect(res.statusCode).toBe(200);
    expect(h.registry.lastCall('exportReceipts').request).toEqual({ receiptIds: [], contractId: 'ctr_1' });
    expect((await asOperator('POST', '/v1/receipts/export', { receipt_ids: ['rcpt_1', 'rcpt_2'] })).statusCode).toBe(200);
    expect(h.registry.lastCall('exportReceipts').request).toEqual({ receiptIds: ['rcpt_1', 'rcpt_2'], contractId: undefined });
    expectProblem(await asOperator('POST', '/v1/receipts/export', {}), 400, 'validation_failed');
    expectProblem(await asOperator('POST', '/v1/receipts/export', { contract_id: 'ctr_1', receipt_ids: ['r'] }), 400, 'validation_failed');
  });
});

describe('POST /v1/casefiles/export', () => {
  it('should pass the subject and include_payloads, and refuse an empty subject', async () => {
    const res = await signed(alice, 'POST', '/v1/casefiles/export', { subject: { contract_id: 'ctr_9', artifact_refs: [`sha256:${'3'.repeat(64)}`] }, include_payloads: true });
    expect(res.statusCode).toBe(200);
    expect(h.registry.lastCall('exportCasefile').request).toEqual({
      subject: { contractId: 'ctr_9', objectIds: [], artifactRefs: [`sha256:${'3'.repeat(64)}`] },
      includePayloads: true,
    });
    expectProblem(await signed(alice, 'POST', '/v1/casefiles/export', { subject: {} }), 400, 'validation_failed');
    h.registry.failNext('exportCasefile', errors.permissionDenied('not_contract_party', 'not a party'));
    expectProblem(await signed(bob, 'POST', '/v1/casefiles/export', { subject: { contract_id: 'ctr_9' } }), 403, 'not_contract_party');
  });
});

describe('POST /v1/casefiles/verify', () => {
  it('should verify a docket or an archive and answer the verdict (public)', async () => {
    const res = await anonymous('POST', '/v1/casefiles/verify', { docket: { docket_id: 'dkt_1', entries: [] }, exchange_public_key: 'a2V5' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: true,
      docket_id: 'dkt_fake',
      checks: [
        { ref: 'docket', ok: true },
        { ref: 'signature', ok: true },
        { ref: `sha256:${'ab'.repeat(32)}`, ok: true },
      ],
    });
    expect(h.registry.lastCall('verifyCasefile').request).toEqual({ input: { $case: 'docketJson', value: '{"docket_id":"dkt_1","entries":[]}' }, exchangePublicKey: 'a2V5' });
    const tampered = await anonymous('POST', '/v1/casefiles/verify', { archive_base64: gzipSync('tampered').toString('base64') });
    expect(tampered.json()).toMatchObject({ valid: false, checks: expect.arrayContaining([{ ref: `sha256:${'ab'.repeat(32)}`, ok: false, reason: 'sha256 mismatch' }]) });
  });

  it('should answer 400 casefile_unreadable for an unreadable archive and 400 for both or neither input', async () => {
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', { archive_base64: Buffer.from('not gzip').toString('base64') }), 400, 'casefile_unreadable');
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', {}), 400, 'validation_failed');
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', { docket: {}, archive_base64: 'AA==' }), 400, 'validation_failed');
  });
});

describe('POST /ui/casefile/verify', () => {
  it('should verify a raw .tar.gz body without credentials (application/gzip or octet-stream)', async () => {
    const ok = await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: gzipSync('fine') });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ valid: true, docket_id: 'dkt_fake' });
    expect(h.registry.lastCall<registryV1.VerifyCasefileRequest>('verifyCasefile').request.input).toEqual({ $case: 'archive', value: gzipSync('fine') });
    const bad = await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/octet-stream' }, payload: gzipSync('tampered') });
    expect(bad.json()).toMatchObject({ valid: false });
  });

  it('should answer 400 casefile_unreadable for garbage or an empty body, 415 for JSON-less types, 413 over 25 MiB', async () => {
    expectProblem(await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: Buffer.from('nope') }), 400, 'casefile_unreadable');
    expectProblem(await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: Buffer.alloc(0) }), 400, 'casefile_unreadable');
    expectProblem(await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'text/plain' }, payload: 'x' }), 415, 'unsupported_media_type');
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: Buffer.alloc(FAKE_MAX_BYTES + 1) }),
      413,
      'payload_too_large',
    );
  });
});

describe('POST /ui/casefile/verify rate limit', () => {
  it('should count the public casefile routes against the per-IP anonymous limit (429 rate_limited)', async () => {
    const limited = await startHarness({ env: { RATE_LIMIT_ANONYMOUS: '2' } });
    try {
      const send = () => limited.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: gzipSync('fine') });
      expect((await send()).statusCode).toBe(200);
      expect((await limited.app.inject({ method: 'GET', url: '/ui/casefile' })).statusCode).toBe(200);
      const third = await send();
      expectProblem(third, 429, 'rate_limited');
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });

  it('should give anonymous verification its own per-IP budget across both verify routes, before reading the body (issue 12 finding 8)', async () => {
    const limited = await startHarness({ env: { RATE_LIMIT_CASEFILE_VERIFY: '3' } });
    try {
      const ui = (ip: string) =>
        limited.app.inject({ method: 'POST', url: '/ui/casefile/verify', remoteAddress: ip, headers: { 'content-type': 'application/gzip' }, payload: gzipSync('fine') });
      const json = (ip: string, headers: Record<string, string> = {}) =>
        limited.app.inject({ method: 'POST', url: '/v1/casefiles/verify', remoteAddress: ip, headers, payload: { archive_base64: gzipSync('fine').toString('base64') } });
      const statuses = [(await ui('10.0.0.1')).statusCode, (await json('10.0.0.1')).statusCode, (await ui('10.0.0.1')).statusCode];
      expect(statuses).toEqual([200, 200, 200]);
      const calls = limited.registry.calls.filter((c) => c.method === 'verifyCasefile').length;
      for (const refused of [await json('10.0.0.1'), await ui('10.0.0.1')]) {
        const body = expectProblem(refused, 429, 'rate_limited');
        expect(body.detail).toMatch(/anonymous casefile verification/);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(limited.registry.calls.filter((c) => c.method === 'verifyCasefile').length).toBe(calls);
      // Another IP, and an authenticated caller from the same IP, are not in that budget.
      expect((await ui('10.0.0.2')).statusCode).toBe(200);
      expect((await json('10.0.0.1', operator())).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('should answer missing, empty or shapeless bodies on the casefile routes with a 4xx problem, never 5xx (issue 12 finding 6)', async () => {
    const bodies: Array<[string, Record<string, string>, string | undefined]> = [
      ['none', {}, undefined],
      ['empty content type', { 'content-type': '' }, '{}'],
      ['empty JSON', { 'content-type': 'application/json' }, ''],
      ['JSON null', { 'content-type': 'application/json' }, 'null'],
      ['JSON array', { 'content-type': 'application/json' }, '[]'],
      ['empty gzip', { 'content-type': 'application/gzip' }, ''],
    ];
    const wrong: string[] = [];
    for (const url of ['/v1/casefiles/verify', '/v1/casefiles/export', '/v1/receipts/export', '/ui/casefile/verify']) {
      for (const [name, headers, payload] of bodies) {
        const res = await h.app.inject({ method: 'POST', url, headers: { ...operator(), ...headers }, ...(payload === undefined ? {} : { payload }) });
        const problem = String(res.headers['content-type']).startsWith('application/problem+json');
        if (res.statusCode < 400 || res.statusCode >= 500 || !problem) wrong.push(`${url} ${name}: ${res.statusCode} ${res.headers['content-type']}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should answer 413 payload_too_large when the registry stops reading an archive at a limit', async () => {
    h.registry.failNext('verifyCasefile', errors.resourceExhausted('payload_too_large', 'archive expands beyond 134217728 bytes'));
    const res = await h.app.inject({ method: 'POST', url: '/ui/casefile/verify', headers: { 'content-type': 'application/gzip' }, payload: gzipSync('bomb') });
    expect(expectProblem(res, 413, 'payload_too_large').detail).toBe('archive expands beyond 134217728 bytes');
    h.registry.failNext('verifyCasefile', errors.resourceExhausted('payload_too_large', 'archive has more than 10000 files'));
    expectProblem(await anonymous('POST', '/v1/casefiles/verify', { archive_base64: gzipSync('many').toString('base64') }), 413, 'payload_too_large');
  });
});

describe('GET /ui/casefile', () => {
  it('should serve a self-contained HTML page (no external assets) with a strict CSP', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/ui/casefile' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('<input id="file"');
    expect(res.body).toContain("fetch('/ui/casefile/verify'");
    expect(res.body).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//);
    expect(res.body).not.toMatch(/<link\b/);
  });
});

describe('GET /v1/party_alias_tokens/{object_id}', () => {
  it('should read a token for any authenticated agent (401 without credentials) and refuse an object of another type (404)', async () => {
    const token: registryV1.RegistryObject = {
      objectId: `sha256:${'4'.repeat(64)}`, type: 'party_alias_token', payloadJson: '{"alias":"anon:abcdefghijkl","contract_id":"ctr_1","role":"buyer"}',
      signerAgentId: 'exchange', signature: 'sig', signerPublicKey: 'pub', visibility: R.Visibility.VISIBILITY_PUBLIC, parties: [], tags: [], createdAt: new Date(1_790_000_000_000),
    };
    h.registry.objects.set(token.objectId, token);
    expectProblem(await anonymous('GET', `/v1/party_alias_tokens/${token.objectId}`), 401, 'unauthenticated');
    const res = await signed(carol, 'GET', `/v1/party_alias_tokens/${token.objectId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object_id: token.objectId, type: 'party_alias_token', payload: { alias: 'anon:abcdefghijkl', contract_id: 'ctr_1', role: 'buyer' }, signer_agent_id: 'exchange' });
    expect(h.registry.lastCall('getObject').request).toEqual({ objectId: token.objectId, type: 'party_alias_token' });
    const note = (await signed(alice, 'POST', '/v1/objects', { type: 'note', payload: 'n', signature: SIG })).json().object_id;
    expectProblem(await signed(carol, 'GET', `/v1/party_alias_tokens/${note}`), 404, 'object_not_found');
  });
});

describe('GET /v1/identity_reveals/{object_id}', () => {
  it('should serve a reveal to the operator and reveal_to only (403 access_denied otherwise, 401 anonymous)', async () => {
    const reveal: registryV1.RegistryObject = {
      objectId: `sha256:${'5'.repeat(64)}`, type: 'identity_reveal',
      payloadJson: JSON.stringify({ alias: 'anon:abcdefghijkl', agent_id: alice.agentId, contract_id: 'ctr_1', reveal_to: bob.agentId }),
      signerAgentId: 'exchange', signature: 'sig', signerPublicKey: 'pub', visibility: R.Visibility.VISIBILITY_PARTIES, parties: [bob.agentId], tags: [], createdAt: new Date(1_790_000_000_000),
    };
    h.registry.objects.set(reveal.objectId, reveal);
    expect((await asOperator('GET', `/v1/identity_reveals/${reveal.objectId}`)).statusCode).toBe(200);
    const byBob = await signed(bob, 'GET', `/v1/identity_reveals/${reveal.objectId}`);
    expect(byBob.statusCode).toBe(200);
    expect(byBob.json().payload).toEqual({ alias: 'anon:abcdefghijkl', agent_id: alice.agentId, contract_id: 'ctr_1', reveal_to: bob.agentId });
    const stranger = new TestAgent(uniqueAgentId('peeker'));
    await registerAgent(h.app, stranger);
    expectProblem(await signed(stranger, 'GET', `/v1/identity_reveals/${reveal.objectId}`), 403, 'access_denied');
    expectProblem(await anonymous('GET', `/v1/identity_reveals/${reveal.objectId}`), 401, 'unauthenticated');
  });
});

/** A contract in the fake market (buyer alice unless overridden). */
const contract = (over: Partial<marketV1.Contract> = {}): marketV1.Contract => {
  const c = {
    contractId: `ctr_alias-${randomBytes(4).toString('hex')}`,
    buyerId: alice.agentId,
    title: 't',
    description: '',
    tags: [],
    budget: { amount: '10', currency: 'CREDIT' },
    deadline: new Date('2030-01-01T00:00:00.000Z'),
    acceptanceCriteria: 'a',
    verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
    status: marketV1.ContractStatus.CONTRACT_STATUS_OPEN,
    escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_NONE,
    createdAt: new Date(1_790_000_000_000),
    updatedAt: new Date(1_790_000_000_000),
    buyerAliasGeneration: 0,
    ...over,
  } as marketV1.Contract;
  h.market.contracts.set(c.contractId, c);
  return c;
};

describe('POST /v1/party_alias_tokens/mint', () => {

  it('should mint the buyer alias for the buyer (201, then 200 with the same token), signed with the published key', async () => {
    const c = contract();
    const res = await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' });
    expect(res.statusCode).toBe(201);
    const token = res.json();
    expect(token).toEqual({
      object_id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      alias: expect.stringMatching(/^anon:/),
      contract_id: c.contractId,
      role: 'buyer',
      payload: { alias: token.alias, contract_id: c.contractId, role: 'buyer' },
      signature: expect.any(String),
      signer_public_key: (await anonymous('GET', '/health')).json().exchange_public_key,
    });
    // The buyer's current alias generation travels with the request (issue 13: no stale alias).
    expect(h.identity.calls.filter((x) => x.method === 'mintPartyAlias').at(-1)!.request).toEqual({
      contractId: c.contractId,
      role: identityV1.PartyRole.PARTY_ROLE_BUYER,
      agentId: alice.agentId,
      generation: 0,
    });
    const again = await asOperator('POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(token);
  });

  it("should ask identity for the buyer alias of the contract's current generation (after a rotation)", async () => {
    const c = contract({ buyerPrivate: true, buyerAlias: 'anon:rotatedaliasx', buyerAliasGeneration: 2 });
    expect((await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' })).statusCode).toBe(201);
    expect(h.identity.calls.filter((x) => x.method === 'mintPartyAlias').at(-1)!.request).toEqual({
      contractId: c.contractId,
      role: identityV1.PartyRole.PARTY_ROLE_BUYER,
      agentId: alice.agentId,
      generation: 2,
    });
  });

  it('should refuse another agent (403 not_contract_party), a seller before the award (409) and an unknown contract (404)', async () => {
    const c = contract();
    expectProblem(await signed(bob, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'buyer' }), 403, 'not_contract_party');
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'seller' }), 409, 'invalid_state');
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: 'ctr_none', role: 'buyer' }), 404, 'contract_not_found');
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'verifier' }), 400, 'validation_failed');
  });

  it('should mint the seller alias for the awarded seller', async () => {
    const c = contract({ sellerId: bob.agentId, status: marketV1.ContractStatus.CONTRACT_STATUS_AWARDED });
    const res = await signed(bob, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'seller' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ role: 'seller', payload: { role: 'seller' } });
    expectProblem(await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: c.contractId, role: 'seller' }), 403, 'not_contract_party');
  });
});

describe('POST /v1/identity_reveals/mint', () => {
  it('should mint a reveal by the aliased agent and answer the stored object; refuse others', async () => {
    const { contractId } = contract();
    const minted = await signed(alice, 'POST', '/v1/party_alias_tokens/mint', { contract_id: contractId, role: 'buyer' });
    expect(minted.statusCode).toBe(201);
    const { alias } = minted.json();
    // The registry holds what identity stored there (the fake identity does not call it).
    const payload = { alias, agent_id: alice.agentId, contract_id: contractId, reveal_to: bob.agentId };
    const objectId = `sha256:${sha256Hex(canonicalize({ type: 'identity_reveal', payload, signer_agent_id: 'exchange' }))}`;
    h.registry.objects.set(objectId, {
      objectId, type: 'identity_reveal', payloadJson: canonicalize(payload), signerAgentId: 'exchange', signature: 'sig', signerPublicKey: 'pub',
      visibility: R.Visibility.VISIBILITY_PARTIES, parties: [bob.agentId], tags: [], createdAt: new Date(1_790_000_000_000),
    });
    const res = await signed(alice, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias, reveal_to: bob.agentId });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ object_id: objectId, type: 'identity_reveal', payload, visibility: 'parties', parties: [bob.agentId] });
    expect(h.identity.calls.filter((x) => x.method === 'mintIdentityReveal').at(-1)!.ctx).toMatchObject({ agentId: alice.agentId });
    const again = await signed(alice, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias, reveal_to: bob.agentId });
    expect(again.statusCode).toBe(200);
    expectProblem(await signed(bob, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias, reveal_to: bob.agentId }), 403, 'not_alias_owner');
    expectProblem(await signed(alice, 'POST', '/v1/identity_reveals/mint', { contract_id: contractId, alias: 'anon:zzzzzzzzzzzz', reveal_to: bob.agentId }), 404, 'alias_not_found');
  });
});
