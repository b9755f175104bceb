import { randomBytes } from 'node:crypto';
import { canonicalize, verifyCanonical } from '@exchange/crypto';
import { registryV1 } from '@exchange/proto';
import { grpcError, status, type RegistryHarness, type TestAgent } from './registry-harness';
import { MiB, startArtifactsWorld } from './artifacts-fixture';

// Who reads an artifact and what follows a read: the access matrix, envelopes, delivery receipts,
// acks, takedown and reinstate.
const { VISIBILITY_PUBLIC, VISIBILITY_PARTIES, VISIBILITY_OPERATOR } = registryV1.Visibility;

describe('registry artifacts (gRPC, real PostgreSQL, filesystem store)', () => {
  let h: RegistryHarness;
  let buyer: TestAgent;
  let seller: TestAgent;
  let stranger: TestAgent;
  let listed: TestAgent;
  const contractId = `ctr_test_${Date.now()}`;

  beforeAll(async () => {
    ({ h, buyer, seller, stranger, listed } = await startArtifactsWorld(contractId));
  });
  afterAll(() => h.close());

  it('access matrix for content: public / parties (incl. contract parties) / operator', async () => {
    const mk = async (access: number, extra: Partial<registryV1.ArtifactMetadata> = {}) =>
      (await h.upload(randomBytes(100), { mediaType: 'application/octet-stream', access, ...extra }, h.as(listed))).artifact!.artifactRef;
    const pub = await mk(VISIBILITY_PUBLIC);
    const par = await mk(VISIBILITY_PARTIES, { contractId: undefined, parties: [seller.agentId] });
    const ops = await mk(VISIBILITY_OPERATOR);
    // listed is not a party of the contract, so the operator uploads the contract-linked one
    const linked = (await h.upload(randomBytes(100), { mediaType: 'application/octet-stream', contractId }, h.operator())).artifact!.artifactRef;
    const can = async (ref: string, opts: object) => {
      try {
        await h.download(ref, opts);
        return true;
      } catch (err) {
        const info = await grpcError(Promise.reject(err));
        expect([info.grpcCode, info.code]).toEqual([status.PERMISSION_DENIED, 'access_denied']);
        return false;
      }
    };
    const table: Array<[string, object, boolean[]]> = [
      ['operator', h.operator(), [true, true, true, true]],
      ['uploader', h.as(listed), [true, true, false, false]],
      ['listed party', h.as(seller), [true, true, false, true]],
      ['contract buyer', h.as(buyer), [true, false, false, true]],
      ['stranger', h.as(stranger), [true, false, false, false]],
      ['anonymous', {}, [true, false, false, false]],
    ];
    for (const [name, opts, expected] of table) {
      const got: boolean[] = [];
      for (const ref of [pub, par, ops, linked]) got.push(await can(ref, opts));
      expect({ name, got }).toEqual({ name, got: expected });
    }
    const meta = await grpcError(h.client.getArtifact({ artifactRef: ops }, h.as(stranger)));
    expect(meta.code).toBe('access_denied');
    const missing = await grpcError(h.client.getArtifact({ artifactRef: `sha256:${'1'.repeat(64)}` }, h.operator()));
    expect([missing.grpcCode, missing.code]).toEqual([status.NOT_FOUND, 'artifact_not_found']);
  });

  it('envelope: returned to those with access, 404 envelope_not_found when none', async () => {
    const withEnv = await h.upload(randomBytes(64), {
      mediaType: 'application/octet-stream',
      parties: [buyer.agentId],
      envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipientKeyIds: ['a2V5MQ=='], nonce: 'bm9uY2U=' },
    }, h.as(seller));
    const env = await h.client.getArtifactEnvelope({ artifactRef: withEnv.artifact!.artifactRef }, h.as(buyer));
    expect(env).toEqual({
      artifactRef: withEnv.artifact!.artifactRef,
      envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipientKeyIds: ['a2V5MQ=='], nonce: 'bm9uY2U=' },
    });
    expect((await grpcError(h.client.getArtifactEnvelope({ artifactRef: withEnv.artifact!.artifactRef }, h.as(stranger)))).code).toBe('access_denied');
    const plain = await h.upload(randomBytes(64), { mediaType: 'application/octet-stream' }, h.as(seller));
    const none = await grpcError(h.client.getArtifactEnvelope({ artifactRef: plain.artifact!.artifactRef }, h.as(seller)));
    expect([none.grpcCode, none.code]).toEqual([status.NOT_FOUND, 'envelope_not_found']);
  });

  it('delivery receipts: exchange-signed per agent download, none for the operator; listed to parties only', async () => {
    const bytes = randomBytes(1000);
    const ref = (await h.upload(bytes, { mediaType: 'application/octet-stream', contractId }, h.as(seller))).artifact!.artifactRef;
    await h.download(ref, h.as(buyer));
    await h.download(ref, h.operator());
    await h.download(ref, { actor: 'operator:ops', agentId: buyer.agentId });
    const list = await h.client.listDeliveryReceipts({ artifactRef: ref, page: { limit: 10, cursor: '' } }, h.as(seller));
    expect(list.receipts).toHaveLength(2);
    for (const r of list.receipts) {
      expect(r).toMatchObject({ artifactRef: ref, agentId: buyer.agentId, sizeBytes: '1000', signerPublicKey: h.exchangePublicKey });
      expect(r.deliveryReceiptId).toMatch(/^dlv_/);
      const fields = {
        delivery_receipt_id: r.deliveryReceiptId,
        artifact_ref: r.artifactRef,
        agent_id: r.agentId,
        size_bytes: 1000,
        delivered_at: r.deliveredAt!.toISOString(),
      };
      expect(verifyCanonical(fields, r.signature, h.exchangePublicKey)).toBe(true);
      expect(verifyCanonical({ ...fields, size_bytes: 999 }, r.signature, h.exchangePublicKey)).toBe(false);
    }
    const page1 = await h.client.listDeliveryReceipts({ artifactRef: ref, page: { limit: 1, cursor: '' } }, h.operator());
    const page2 = await h.client.listDeliveryReceipts({ artifactRef: ref, page: { limit: 1, cursor: page1.page!.nextCursor } }, h.operator());
    expect([...page1.receipts, ...page2.receipts].map((r) => r.deliveryReceiptId)).toEqual(list.receipts.map((r) => r.deliveryReceiptId));
    expect(page2.page!.nextCursor).toBe('');
    const denied = await grpcError(h.client.listDeliveryReceipts({ artifactRef: ref, page: undefined }, h.as(stranger)));
    expect(denied.code).toBe('access_denied');
    const delivered = (await h.outbox(ref)).filter((e) => e.type === 'exchange.registry.artifact.delivered');
    expect(delivered).toHaveLength(2);
  });

  it('a download cancelled by the client writes no delivery receipt; the next full one does', async () => {
    const bytes = randomBytes(20 * MiB);
    const ref = (await h.upload(bytes, { mediaType: 'application/octet-stream', parties: [buyer.agentId] }, h.as(seller))).artifact!.artifactRef;
    const { Metadata } = await import('@grpc/grpc-js');
    const md = new Metadata();
    md.set('x-actor', `agent:${buyer.agentId}`);
    md.set('x-agent-id', buyer.agentId);
    const call = h.streams.downloadArtifact({ artifactRef: ref }, md);
    await new Promise<void>((resolve) => {
      call.on('data', (msg: registryV1.DownloadArtifactResponse) => {
        if (msg.part?.$case === 'chunk') {
          call.cancel();
          resolve();
        }
      });
      call.on('error', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 500));
    const none = await h.client.listDeliveryReceipts({ artifactRef: ref, page: undefined }, h.as(seller));
    expect(none.receipts).toEqual([]);
    expect((await h.download(ref, h.as(buyer))).bytes.equals(bytes)).toBe(true);
    const one = await h.client.listDeliveryReceipts({ artifactRef: ref, page: undefined }, h.as(seller));
    expect(one.receipts.map((r) => r.agentId)).toEqual([buyer.agentId]);
  });

  it('acks: signed by the agent over {artifact_ref, agent_id}, once; strangers and bad signatures refused', async () => {
    const ref = (await h.upload(randomBytes(50), { mediaType: 'application/octet-stream', contractId }, h.as(seller))).artifact!.artifactRef;
    const sig = h.signJson(buyer, { artifact_ref: ref, agent_id: buyer.agentId });
    const first = await h.client.ackArtifact({ artifactRef: ref, agentId: '', signature: sig }, h.as(buyer));
    expect(first.created).toBe(true);
    expect(first.ack).toMatchObject({ artifactRef: ref, agentId: buyer.agentId, signature: sig });
    expect(first.ack!.ackId).toMatch(/^ack_/);
    const again = await h.client.ackArtifact({ artifactRef: ref, agentId: buyer.agentId, signature: sig }, h.as(buyer));
    expect(again).toEqual({ ack: first.ack, created: false });
    const bad = await grpcError(h.client.ackArtifact({ artifactRef: ref, agentId: '', signature: h.signJson(seller, { artifact_ref: ref, agent_id: seller.agentId }).replace(/^./, 'A') }, h.as(seller)));
    expect(bad.grpcCode).toBe(status.INVALID_ARGUMENT);
    const wrongPayload = await grpcError(h.client.ackArtifact({ artifactRef: ref, agentId: '', signature: h.signJson(seller, { artifact_ref: ref }) }, h.as(seller)));
    expect(wrongPayload.code).toBe('ack_signature_invalid');
    const stranger403 = await grpcError(
      h.client.ackArtifact({ artifactRef: ref, agentId: '', signature: h.signJson(stranger, { artifact_ref: ref, agent_id: stranger.agentId }) }, h.as(stranger)),
    );
    expect([stranger403.grpcCode, stranger403.code]).toEqual([status.PERMISSION_DENIED, 'access_denied']);
    const mismatch = await grpcError(h.client.ackArtifact({ artifactRef: ref, agentId: seller.agentId, signature: sig }, h.as(buyer)));
    expect(mismatch.code).toBe('acting_agent_mismatch');
    expect((await h.outbox(ref)).filter((e) => e.type === 'exchange.registry.artifact.acked')).toHaveLength(1);
    expect(canonicalize({ agent_id: 'a', artifact_ref: 'r' })).toBe('{"agent_id":"a","artifact_ref":"r"}');
  });

  it('takedown → artifact_removed (451) with the reason; reinstate; audited with events; operator only; invalid_state', async () => {
    const ref = (await h.upload(randomBytes(80), { mediaType: 'application/octet-stream', access: VISIBILITY_PUBLIC }, h.as(seller))).artifact!.artifactRef;
    const notOp = await grpcError(h.client.takedownArtifact({ artifactRef: ref, reason: 'dmca' }, h.as(buyer)));
    expect(notOp.grpcCode).toBe(status.PERMISSION_DENIED);
    const noReason = await grpcError(h.client.takedownArtifact({ artifactRef: ref, reason: ' ' }, h.operator()));
    expect(noReason.code).toBe('validation_failed');
    const down = await h.client.takedownArtifact({ artifactRef: ref, reason: 'DMCA notice 42' }, h.operator('alice'));
    expect(down.artifact).toMatchObject({ status: registryV1.ArtifactStatus.ARTIFACT_STATUS_REMOVED, removedReason: 'DMCA notice 42' });
    const removed = await grpcError(h.download(ref, h.as(buyer)));
    expect([removed.grpcCode, removed.code]).toEqual([status.FAILED_PRECONDITION, 'artifact_removed']);
    expect(removed.details).toEqual({ reason: 'DMCA notice 42' });
    expect((await grpcError(h.download(ref, h.operator()))).code).toBe('artifact_removed');
    const twice = await grpcError(h.client.takedownArtifact({ artifactRef: ref, reason: 'again' }, h.operator()));
    expect([twice.grpcCode, twice.code]).toEqual([status.FAILED_PRECONDITION, 'invalid_state']);
    const back = await h.client.reinstateArtifact({ artifactRef: ref, reason: 'counter-notice' }, h.operator('bob'));
    expect(back.artifact).toMatchObject({ status: registryV1.ArtifactStatus.ARTIFACT_STATUS_ACTIVE });
    expect(back.artifact!.removedReason).toBeUndefined();
    expect((await h.download(ref, h.as(buyer))).bytes.length).toBe(80);
    expect((await grpcError(h.client.reinstateArtifact({ artifactRef: ref, reason: 'x' }, h.operator()))).code).toBe('invalid_state');
    const { rows } = await h.sql.query(`SELECT action, operator, reason, id FROM audit_log WHERE artifact_ref = $1 ORDER BY at, id`, [ref]);
    expect(rows.map((r) => [r.action, r.operator, r.reason])).toEqual([
      ['takedown', 'alice', 'DMCA notice 42'],
      ['reinstate', 'bob', 'counter-notice'],
    ]);
    expect(rows.every((r) => r.id.startsWith('aud_'))).toBe(true);
    const events = (await h.outbox(ref)).filter((e) => e.type !== 'exchange.registry.artifact.delivered');
    expect(events.map((e) => [e.type, e.data.actor, e.data.reason])).toEqual([
      ['exchange.registry.artifact.uploaded', undefined, undefined],
      ['exchange.registry.artifact.removed', 'operator:alice', 'DMCA notice 42'],
      ['exchange.registry.artifact.reinstated', 'operator:bob', 'counter-notice'],
    ]);
  });
});
