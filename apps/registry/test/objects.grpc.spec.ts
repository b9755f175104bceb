import { canonicalize, generateKeyPair, sha256Hex, toBase64, verifyCanonical } from '@exchange/crypto';
import { registryV1 } from '@exchange/proto';
import { grpcError, startRegistryHarness, status, type RegistryHarness, type TestAgent } from './registry-harness';

const { VISIBILITY_PUBLIC, VISIBILITY_PARTIES, VISIBILITY_OPERATOR } = registryV1.Visibility;

describe('registry objects (gRPC, real PostgreSQL)', () => {
  let h: RegistryHarness;
  let alice: TestAgent;
  let bob: TestAgent;
  let carol: TestAgent;

  beforeAll(async () => {
    h = await startRegistryHarness();
    alice = h.newAgent('alice');
    bob = h.newAgent('bob');
    carol = h.newAgent('carol');
  });
  afterAll(() => h.close());

  const store = (agent: TestAgent, payload: unknown, extra: Partial<registryV1.StoreObjectRequest> = {}, signWith: TestAgent = agent) =>
    h.client.storeObject(
      {
        type: 'note',
        payloadJson: JSON.stringify(payload),
        signerAgentId: '',
        signature: h.signJson(signWith, payload),
        visibility: 0,
        parties: [],
        tags: [],
        ...extra,
      },
      h.as(agent),
    );

  it('stores a signed object under its content id, once (idempotent), with an event', async () => {
    const payload = { b: [1, 2], a: 'hello' };
    const first = await store(alice, payload, { tags: ['greeting'] });
    const expectedId = `sha256:${sha256Hex(canonicalize({ type: 'note', payload, signer_agent_id: alice.agentId }))}`;
    expect(first.created).toBe(true);
    expect(first.object).toMatchObject({
      objectId: expectedId,
      type: 'note',
      payloadJson: '{"a":"hello","b":[1,2]}',
      signerAgentId: alice.agentId,
      signerPublicKey: toBase64(alice.publicKey),
      visibility: VISIBILITY_PUBLIC,
      tags: ['greeting'],
    });
    const again = await store(alice, { a: 'hello', b: [1, 2] }, { tags: ['other'] });
    expect(again.created).toBe(false);
    expect(again.object).toEqual(first.object);
    const events = await h.outbox(expectedId);
    expect(events.map((e) => e.type)).toEqual(['exchange.registry.object.stored']);
    expect(events[0].data.object.objectId).toBe(expectedId);
    const got = await h.client.getObject({ objectId: expectedId }, h.as(bob));
    expect(got.object).toEqual(first.object);
  });

  it('the same object stored 8 times at once: one created, one event', async () => {
    const payload = { race: Date.now() };
    const results = await Promise.all(Array.from({ length: 8 }, () => store(alice, payload)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.object!.objectId)).size).toBe(1);
    expect(await h.outbox(results[0].object!.objectId)).toHaveLength(1);
  });

  it('refuses a forged signature, a changed payload, a wrong signer and a revoked key', async () => {
    const payload = { claim: 'x' };
    // signed by bob, claimed by alice
    let err = await grpcError(store(alice, payload, {}, bob));
    expect([err.grpcCode, err.code]).toEqual([status.INVALID_ARGUMENT, 'object_signature_invalid']);
    // signature over another payload
    err = await grpcError(store(alice, payload, { signature: h.signJson(alice, { claim: 'y' }) }));
    expect(err.code).toBe('object_signature_invalid');
    // garbage signature
    err = await grpcError(store(alice, payload, { signature: toBase64(new Uint8Array(64)) }));
    expect(err.code).toBe('object_signature_invalid');
    // acting agent is not the signer
    err = await grpcError(store(alice, payload, { signerAgentId: bob.agentId, signature: h.signJson(bob, payload) }));
    expect([err.grpcCode, err.code]).toEqual([status.PERMISSION_DENIED, 'acting_agent_mismatch']);
    // revoked key: identity no longer lists it
    const dave = h.newAgent('dave');
    const signature = h.signJson(dave, payload);
    h.identity.put({ agentId: dave.agentId, pubkeys: [toBase64(generateKeyPair().publicKey)] });
    err = await grpcError(store(dave, payload, { signature }));
    expect(err.code).toBe('object_signature_invalid');
    // unknown and frozen signers
    err = await grpcError(store(alice, payload, { signerAgentId: 'test:nobody:1' }));
    expect(err.code).toBe('acting_agent_mismatch');
    err = await grpcError(
      h.client.storeObject(
        { type: 'note', payloadJson: '{}', signerAgentId: 'test:nobody:1', signature: h.signJson(alice, {}), visibility: 0, parties: [], tags: [] },
        h.operator(),
      ),
    );
    expect([err.grpcCode, err.code]).toEqual([status.NOT_FOUND, 'agent_not_found']);
    const erin = h.newAgent('erin');
    h.identity.freeze(erin.agentId);
    err = await grpcError(store(erin, payload));
    expect([err.grpcCode, err.code]).toEqual([status.PERMISSION_DENIED, 'agent_frozen']);
    const { rows } = await h.sql.query(`SELECT count(*)::int AS n FROM objects WHERE payload_json = '{"claim":"x"}'`);
    expect(rows[0].n).toBe(0);
  });

  it('refuses reserved types, bad types, tags, parties and attestations without subject_ref', async () => {
    let err = await grpcError(store(alice, { alias: 'anon:x' }, { type: 'party_alias_token' }));
    expect([err.grpcCode, err.code]).toEqual([status.PERMISSION_DENIED, 'reserved_type']);
    err = await grpcError(store(alice, { a: 1 }, { type: 'identity_reveal' }));
    expect(err.code).toBe('reserved_type');
    err = await grpcError(store(alice, { a: 1 }, { type: 'Bad Type' }));
    expect(err.code).toBe('validation_failed');
    err = await grpcError(store(alice, { a: 1 }, { tags: ['UPPER'] }));
    expect(err.code).toBe('validation_failed');
    err = await grpcError(store(alice, { a: 1 }, { parties: Array.from({ length: 101 }, (_, i) => `p:${i}`) }));
    expect(err.code).toBe('validation_failed');
    err = await grpcError(store(alice, { claim: 'ok' }, { type: 'attestation' }));
    expect(err.code).toBe('validation_failed');
    err = await grpcError(h.client.storeObject({ type: 'note', payloadJson: '{nope', signerAgentId: '', signature: 'x', visibility: 0, parties: [], tags: [] }, h.as(alice)));
    expect(err.code).toBe('validation_failed');
  });

  it('access matrix: public, parties, operator × operator, signer, listed party, stranger, anonymous', async () => {
    const pub = (await store(alice, { m: 'pub' }, { visibility: VISIBILITY_PUBLIC, tags: ['matrix'] })).object!;
    const par = (await store(alice, { m: 'par' }, { visibility: VISIBILITY_PARTIES, parties: [bob.agentId], tags: ['matrix'] })).object!;
    const ops = (await store(alice, { m: 'ops' }, { visibility: VISIBILITY_OPERATOR, tags: ['matrix'] })).object!;
    const viewers = {
      operator: h.operator(),
      signer: h.as(alice),
      party: h.as(bob),
      stranger: h.as(carol),
      operatorActingAsStranger: { actor: 'operator:ops', agentId: carol.agentId },
      anonymous: {},
    };
    const expected: Record<string, [boolean, boolean, boolean]> = {
      operator: [true, true, true],
      signer: [true, true, false],
      party: [true, true, false],
      stranger: [true, false, false],
      operatorActingAsStranger: [true, false, false],
      anonymous: [true, false, false],
    };
    for (const [name, opts] of Object.entries(viewers)) {
      const seen: boolean[] = [];
      for (const o of [pub, par, ops]) {
        try {
          await h.client.getObject({ objectId: o.objectId }, opts);
          seen.push(true);
        } catch (err) {
          const info = await grpcError(Promise.reject(err));
          expect([info.grpcCode, info.code]).toEqual([status.PERMISSION_DENIED, 'access_denied']);
          seen.push(false);
        }
      }
      expect({ name, seen }).toEqual({ name, seen: expected[name] });
      const listed = await h.client.listObjects({ tag: 'matrix', page: { limit: 50, cursor: '' } }, opts);
      const ids = new Set(listed.objects.map((o) => o.objectId));
      expect({ name, listed: [pub, par, ops].map((o) => ids.has(o.objectId)) }).toEqual({ name, listed: expected[name] });
    }
    const missing = await grpcError(h.client.getObject({ objectId: `sha256:${'0'.repeat(64)}` }, h.operator()));
    expect([missing.grpcCode, missing.code]).toEqual([status.NOT_FOUND, 'object_not_found']);
    const wrongType = await grpcError(h.client.getObject({ objectId: pub.objectId, type: 'attestation' }, h.operator()));
    expect(wrongType.code).toBe('object_not_found');
  });

  it('lists by type and tag, newest first, through pages without gaps', async () => {
    const tag = `page-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store(alice, { i, tag }, { tags: [tag] })).object!.objectId);
    const seen: string[] = [];
    let cursor = '';
    do {
      const res = await h.client.listObjects({ tag, type: 'note', page: { limit: 2, cursor } }, h.as(bob));
      seen.push(...res.objects.map((o) => o.objectId));
      cursor = res.page!.nextCursor;
    } while (cursor !== '');
    expect(seen).toEqual([...ids].reverse());
    const none = await h.client.listObjects({ tag, type: 'attestation', page: { limit: 10, cursor: '' } }, h.as(bob));
    expect(none.objects).toEqual([]);
  });

  it('exchange objects are signed by the exchange key (reserved types allowed internally)', async () => {
    const payload = { alias: 'anon:abc', contract_id: 'ctr_1', role: 'buyer' };
    const res = await h.client.storeExchangeObject({ type: 'party_alias_token', payloadJson: JSON.stringify(payload), visibility: 0, parties: [], tags: [] });
    expect(res.created).toBe(true);
    expect(res.object).toMatchObject({
      objectId: `sha256:${sha256Hex(canonicalize({ type: 'party_alias_token', payload, signer_agent_id: 'exchange' }))}`,
      signerAgentId: 'exchange',
      signerPublicKey: h.exchangePublicKey,
    });
    expect(verifyCanonical(payload, res.object!.signature, h.exchangePublicKey)).toBe(true);
    const again = await h.client.storeExchangeObject({ type: 'party_alias_token', payloadJson: JSON.stringify(payload), visibility: 0, parties: [], tags: [] });
    expect(again.created).toBe(false);
  });

  it('attestations: query by subject, signer and time range', async () => {
    const subject = `ctr_${Date.now()}`;
    const a1 = (await store(alice, { subject_ref: subject, claim: 'delivered on time' }, { type: 'attestation' })).object!;
    const b1 = (await store(bob, { subject_ref: subject, claim: { score: 5 } }, { type: 'attestation' })).object!;
    await store(bob, { subject_ref: `${subject}-other`, claim: 'x' }, { type: 'attestation' });
    const all = await h.client.queryAttestations({ subjectRef: subject, page: { limit: 10, cursor: '' } }, h.as(carol));
    expect(all.attestations.map((o) => o.objectId)).toEqual([b1.objectId, a1.objectId]);
    const byBob = await h.client.queryAttestations({ subjectRef: subject, signerAgentId: bob.agentId, page: undefined }, h.as(carol));
    expect(byBob.attestations.map((o) => o.objectId)).toEqual([b1.objectId]);
    const future = await h.client.queryAttestations({ subjectRef: subject, from: new Date(Date.now() + 60_000), page: undefined }, h.as(carol));
    expect(future.attestations).toEqual([]);
    const past = await h.client.queryAttestations({ subjectRef: subject, to: new Date(a1.createdAt!.getTime()), page: undefined }, h.as(carol));
    expect(past.attestations).toEqual([]);
  });
});
