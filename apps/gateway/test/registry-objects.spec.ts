import { canonicalize } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';
import { expectProblem, registerAgent, TestAgent, uniqueAgentId } from './harness';
import { alice, anonymous, asOperator, bob, carol, h, ISO, R, SIG, signed, useRegistryHarness } from './registry-setup';

// The registry areas through app.inject() against real grpc-js servers (fake identity, market and
// registry): HTTP ⇄ gRPC mapping, acting agent, anonymous reads, streamed uploads/downloads, size
// limits and error mapping. Here: objects, attestations and the docket exports; artifacts in
// registry-artifacts.spec.ts, casefile verification and its UI in registry-casefiles.spec.ts,
// party alias tokens and identity reveals in registry-aliases.spec.ts.

useRegistryHarness();

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
