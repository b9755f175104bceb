import { registryV1 } from '@exchange/proto';
import { randomBytes } from 'node:crypto';
import { FAKE_MAX_BYTES } from './fake-registry';
import { expectProblem, operator } from './harness';
import { alice, anonymous, asOperator, bob, carol, form, h, ISO, R, refOf, SIG, signed, signedMultipart, useRegistryHarness } from './registry-setup';

// The Artifacts area (JSON and multipart uploads streamed to the registry, downloads, takedown,
// envelopes, acks, delivery receipts) through app.inject(), as registry-objects.spec.ts.

useRegistryHarness();

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
