import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { canonicalize, verifyCanonical } from '@exchange/crypto';
import { registryV1 } from '@exchange/proto';
import { contractFixture, grpcError, startRegistryHarness, status, type RegistryHarness, type TestAgent } from './registry-harness';

const { VISIBILITY_PUBLIC, VISIBILITY_PARTIES, VISIBILITY_OPERATOR } = registryV1.Visibility;
const MiB = 1024 * 1024;
/** Rows an upload writes: the bytes' and the upload's. */
const COUNT_ROWS = `SELECT (SELECT count(*) FROM artifacts) + (SELECT count(*) FROM artifact_uploads) AS n`;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('registry artifacts (gRPC, real PostgreSQL, filesystem store)', () => {
  let h: RegistryHarness;
  let buyer: TestAgent;
  let seller: TestAgent;
  let stranger: TestAgent;
  let listed: TestAgent;
  const contractId = `ctr_test_${Date.now()}`;

  beforeAll(async () => {
    h = await startRegistryHarness();
    buyer = h.newAgent('buyer');
    seller = h.newAgent('seller');
    stranger = h.newAgent('stranger');
    listed = h.newAgent('listed');
    h.fakes.contracts.set(contractId, contractFixture(contractId, buyer.agentId, seller.agentId));
  });
  afterAll(() => h.close());

  it('uploads and downloads byte-exact in 64 KiB chunks; the same bytes by another agent are its own upload', async () => {
    const bytes = randomBytes(300 * 1024 + 17);
    const ref = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const up = await h.upload(bytes, { mediaType: 'application/pdf', contractId, parties: [listed.agentId] }, h.as(seller));
    expect(up.created).toBe(true);
    expect(up.artifact).toMatchObject({
      artifactRef: ref,
      sizeBytes: String(bytes.length),
      mediaType: 'application/pdf',
      contractId,
      access: VISIBILITY_PARTIES,
      parties: [listed.agentId],
      status: registryV1.ArtifactStatus.ARTIFACT_STATUS_ACTIVE,
      uploadedBy: seller.agentId,
    });
    // The buyer's upload of the same bytes: its own metadata, nothing of the seller's.
    const again = await h.upload(bytes, { mediaType: 'text/plain', access: VISIBILITY_PUBLIC }, h.as(buyer));
    expect(again.created).toBe(true);
    expect(again.artifact).toMatchObject({ artifactRef: ref, mediaType: 'text/plain', access: VISIBILITY_PUBLIC, parties: [], uploadedBy: buyer.agentId });
    expect(again.artifact!.contractId).toBeUndefined();
    const down = await h.download(ref, h.as(buyer));
    expect(down.bytes.equals(bytes)).toBe(true);
    expect(down.artifact).toEqual(again.artifact);
    expect(down.chunkSizes.slice(0, -1).every((n) => n === 64 * 1024)).toBe(true);
    expect((await h.outbox(ref)).map((e) => [e.type, e.data.artifact?.uploadedBy])).toEqual([
      ['exchange.registry.artifact.uploaded', seller.agentId],
      ['exchange.registry.artifact.uploaded', buyer.agentId],
      ['exchange.registry.artifact.delivered', undefined],
    ]);
    expect(filesUnder(h.storeDir).filter((f) => f.endsWith(ref.slice('sha256:'.length)))).toHaveLength(1);
  });

  it('the same bytes uploaded 6 times at once: one created, one event, one file', async () => {
    const bytes = randomBytes(700 * 1024);
    const hex = createHash('sha256').update(bytes).digest('hex');
    const results = await Promise.all(Array.from({ length: 6 }, () => h.upload(bytes, { mediaType: 'application/octet-stream' }, h.as(buyer))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify(r.artifact))).size).toBe(1);
    expect((await h.outbox(`sha256:${hex}`)).map((e) => e.type)).toEqual(['exchange.registry.artifact.uploaded']);
    expect(filesUnder(h.storeDir).filter((f) => f.endsWith(hex))).toHaveLength(1);
    expect(filesUnder(path.join(h.storeDir, '.parts'))).toEqual([]);
  });

  it('25 MiB round-trips; 25 MiB + 1 is payload_too_large and leaves nothing behind', async () => {
    const big = randomBytes(25 * MiB);
    const up = await h.upload(big, { mediaType: 'application/octet-stream' }, h.as(buyer));
    expect(up.artifact!.sizeBytes).toBe(String(25 * MiB));
    const down = await h.download(up.artifact!.artifactRef, h.as(buyer));
    expect(down.bytes.length).toBe(big.length);
    expect(down.bytes.equals(big)).toBe(true);

    const before = filesUnder(h.storeDir).sort();
    const { rows: countBefore } = await h.sql.query(COUNT_ROWS);
    const tooBig = Buffer.concat([randomBytes(25 * MiB), Buffer.from([7])]);
    const err = await grpcError(h.upload(tooBig, { mediaType: 'application/octet-stream' }, h.as(buyer)));
    expect([err.grpcCode, err.code]).toEqual([status.RESOURCE_EXHAUSTED, 'payload_too_large']);
    expect(filesUnder(h.storeDir).sort()).toEqual(before);
    const { rows: countAfter } = await h.sql.query(COUNT_ROWS);
    expect(countAfter[0].n).toBe(countBefore[0].n);
  }, 120_000);

  it('stores nothing unless the stream ends with a commit: ended early, cancelled, or a commit for other bytes', async () => {
    const { rows: before } = await h.sql.query(COUNT_ROWS);
    const storedBefore = filesUnder(h.storeDir).sort();
    const refOf = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
    const attempts: Array<{ bytes: Buffer; ending: Parameters<RegistryHarness['upload']>[3] }> = [
      { bytes: randomBytes(200 * 1024), ending: { kind: 'end' } },
      { bytes: randomBytes(200 * 1024), ending: { kind: 'cancel' } },
      { bytes: randomBytes(200 * 1024), ending: { kind: 'commit', contentSha256: '0'.repeat(64) } },
    ];
    const outcomes = [];
    for (const a of attempts) {
      const err = await grpcError(h.upload(a.bytes, { mediaType: 'text/plain', contractId, access: VISIBILITY_PUBLIC }, h.as(buyer), a.ending));
      outcomes.push([err.grpcCode, err.code]);
    }
    expect(outcomes).toEqual([
      [status.ABORTED, 'upload_not_committed'],
      [status.CANCELLED, 'cancelled'],
      [status.INVALID_ARGUMENT, 'content_hash_mismatch'],
    ]);
    // The cancelled call is answered before the registry has discarded its part: wait for it.
    for (let i = 0; i < 100 && filesUnder(path.join(h.storeDir, '.parts')).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(filesUnder(h.storeDir).sort()).toEqual(storedBefore);
    const { rows: after } = await h.sql.query(COUNT_ROWS);
    expect(after[0].n).toBe(before[0].n);
    for (const a of attempts) {
      expect((await grpcError(h.client.getArtifact({ artifactRef: refOf(a.bytes) }, h.operator()))).code).toBe('artifact_not_found');
      expect(await h.outbox(refOf(a.bytes))).toEqual([]);
    }
  });

  it('refuses empty content, a missing contract and a non-party uploader', async () => {
    let err = await grpcError(h.upload(Buffer.alloc(0), { mediaType: 'text/plain' }, h.as(buyer)));
    expect([err.grpcCode, err.code]).toEqual([status.INVALID_ARGUMENT, 'validation_failed']);
    expect(filesUnder(h.storeDir).some((f) => f.endsWith(createHash('sha256').update(Buffer.alloc(0)).digest('hex')))).toBe(false);
    err = await grpcError(h.upload(Buffer.from('x'), { mediaType: 'text/plain', contractId: 'ctr_missing' }, h.as(buyer)));
    expect([err.grpcCode, err.code]).toEqual([status.NOT_FOUND, 'contract_not_found']);
    err = await grpcError(h.upload(Buffer.from('x'), { mediaType: 'text/plain', contractId }, h.as(stranger)));
    expect([err.grpcCode, err.code]).toEqual([status.PERMISSION_DENIED, 'not_contract_party']);
    const byOperator = await h.upload(Buffer.from('operator upload'), { mediaType: 'text/plain', contractId }, h.operator());
    expect(byOperator.artifact!.uploadedBy).toBe('');
    err = await grpcError(h.upload(Buffer.from('x'), { mediaType: 'not a type' }, h.as(buyer)));
    expect(err.code).toBe('validation_failed');
  });

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
  describe('per upload: the same bytes uploaded by several agents (issue 13)', () => {
    const refOf = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

    it("each uploader gets and reads its own upload; reads pick the caller's own, then one it is a party of, then a public one", async () => {
      const bytes = randomBytes(4096);
      const ref = refOf(bytes);
      const bySeller = await h.upload(bytes, { mediaType: 'application/pdf', contractId, parties: [listed.agentId] }, h.as(seller));
      const byStranger = await h.upload(bytes, { mediaType: 'text/plain', access: VISIBILITY_PARTIES, parties: [] }, h.as(stranger));
      expect(byStranger.created).toBe(true);
      expect(byStranger.artifact).toMatchObject({ artifactRef: ref, mediaType: 'text/plain', access: VISIBILITY_PARTIES, parties: [], uploadedBy: stranger.agentId });
      expect(byStranger.artifact!.contractId).toBeUndefined();
      const got = async (opts: object) => (await h.client.getArtifact({ artifactRef: ref }, opts)).artifact!.uploadedBy;
      expect(await got(h.as(seller))).toBe(seller.agentId);
      expect(await got(h.as(stranger))).toBe(stranger.agentId);
      expect(await got(h.as(listed))).toBe(seller.agentId);
      expect(await got(h.as(buyer))).toBe(seller.agentId); // the contract's buyer is a party of the seller's upload
      expect(await got(h.operator())).toBe(seller.agentId); // the oldest
      expect((await h.download(ref, h.as(stranger))).artifact).toEqual(byStranger.artifact);

      // Another agent's public upload of the same bytes: a stranger to both reads that one only.
      const other = h.newAgent('other');
      const outsider = h.newAgent('outsider');
      expect((await grpcError(h.client.getArtifact({ artifactRef: ref }, h.as(outsider)))).code).toBe('access_denied');
      const byOther = await h.upload(bytes, { mediaType: 'text/csv', access: VISIBILITY_PUBLIC }, h.as(other));
      expect((await h.client.getArtifact({ artifactRef: ref }, h.as(outsider))).artifact).toEqual(byOther.artifact);
      expect((await h.client.getArtifact({ artifactRef: ref }, h.as(listed))).artifact).toEqual(bySeller.artifact);

      // An upload by the operator itself is what the operator reads first.
      const byOperator = await h.upload(bytes, { mediaType: 'application/json', access: VISIBILITY_OPERATOR }, h.operator());
      expect((await h.client.getArtifact({ artifactRef: ref }, h.operator())).artifact).toEqual(byOperator.artifact);
      expect(filesUnder(h.storeDir).filter((f) => f.endsWith(ref.slice('sha256:'.length)))).toHaveLength(1);
    });

    it('the same uploader again is idempotent (its first upload, created false); another contract is another upload', async () => {
      const bytes = randomBytes(512);
      const first = await h.upload(bytes, { mediaType: 'text/plain', parties: [listed.agentId] }, h.as(seller));
      const again = await h.upload(bytes, { mediaType: 'image/png', access: VISIBILITY_PUBLIC }, h.as(seller));
      expect(again).toEqual({ artifact: first.artifact, created: false });
      const forContract = await h.upload(bytes, { mediaType: 'image/png', contractId }, h.as(seller));
      expect(forContract.created).toBe(true);
      expect(forContract.artifact).toMatchObject({ contractId, mediaType: 'image/png', parties: [] });
      const { rows } = await h.sql.query(`SELECT count(*)::int AS n FROM artifact_uploads WHERE artifact_ref = $1`, [first.artifact!.artifactRef]);
      expect(rows[0].n).toBe(2);
      expect((await h.outbox(first.artifact!.artifactRef)).filter((e) => e.type === 'exchange.registry.artifact.uploaded')).toHaveLength(2);
    });

    it("delivery receipts and acks belong to the upload that was read: each uploader lists only its own upload's", async () => {
      const bytes = randomBytes(700);
      const ref = refOf(bytes);
      await h.upload(bytes, { mediaType: 'text/plain', parties: [listed.agentId] }, h.as(seller));
      await h.upload(bytes, { mediaType: 'text/plain', parties: [] }, h.as(stranger));
      await h.download(ref, h.as(listed));
      await h.download(ref, h.as(stranger));
      const receipts = async (opts: object) =>
        (await h.client.listDeliveryReceipts({ artifactRef: ref, page: undefined }, opts)).receipts.map((r) => r.agentId).sort();
      expect(await receipts(h.as(seller))).toEqual([listed.agentId]);
      expect(await receipts(h.as(listed))).toEqual([listed.agentId]);
      expect(await receipts(h.as(stranger))).toEqual([stranger.agentId]);
      expect(await receipts(h.operator())).toEqual([listed.agentId, stranger.agentId].sort());
      expect((await grpcError(h.client.listDeliveryReceipts({ artifactRef: ref, page: undefined }, h.as(buyer)))).code).toBe('access_denied');

      const ack = (agent: TestAgent) => h.client.ackArtifact({ artifactRef: ref, agentId: '', signature: h.signJson(agent, { artifact_ref: ref, agent_id: agent.agentId }) }, h.as(agent));
      const byListed = await ack(listed);
      const byStranger = await ack(stranger);
      expect([byListed.created, byStranger.created]).toEqual([true, true]);
      const { rows } = await h.sql.query(
        `SELECT k.agent_id, u.uploaded_by FROM artifact_acks k JOIN artifact_uploads u ON u.upload_id = k.upload_id WHERE k.artifact_ref = $1 ORDER BY k.agent_id`,
        [ref],
      );
      expect(rows).toEqual(
        [
          { agent_id: listed.agentId, uploaded_by: seller.agentId },
          { agent_id: stranger.agentId, uploaded_by: stranger.agentId },
        ].sort((a, b) => a.agent_id.localeCompare(b.agent_id)),
      );
    });

    it('the envelope is the upload the caller reads; a takedown removes the content for every upload', async () => {
      const bytes = randomBytes(300);
      const ref = refOf(bytes);
      const envelope = { algorithm: 'x25519-xsalsa20-poly1305', recipientKeyIds: ['a2V5MQ=='], nonce: 'bm9uY2U=' };
      await h.upload(bytes, { mediaType: 'application/octet-stream', parties: [buyer.agentId], envelope }, h.as(seller));
      await h.upload(bytes, { mediaType: 'application/octet-stream', access: VISIBILITY_PUBLIC }, h.as(stranger));
      expect((await h.client.getArtifactEnvelope({ artifactRef: ref }, h.as(buyer))).envelope).toEqual(envelope);
      const none = await grpcError(h.client.getArtifactEnvelope({ artifactRef: ref }, h.as(stranger)));
      expect([none.grpcCode, none.code]).toEqual([status.NOT_FOUND, 'envelope_not_found']);

      await h.client.takedownArtifact({ artifactRef: ref, reason: 'court order 9' }, h.operator());
      for (const who of [seller, stranger, buyer]) {
        const err = await grpcError(h.download(ref, h.as(who)));
        expect([err.code, err.details]).toEqual(['artifact_removed', { reason: 'court order 9' }]);
        expect((await h.client.getArtifact({ artifactRef: ref }, h.as(who))).artifact!.status).toBe(registryV1.ArtifactStatus.ARTIFACT_STATUS_REMOVED);
      }
      // Uploading removed bytes again records the upload, but the content stays removed.
      const late = await h.upload(bytes, { mediaType: 'application/octet-stream' }, h.as(listed));
      expect(late.artifact).toMatchObject({ uploadedBy: listed.agentId, status: registryV1.ArtifactStatus.ARTIFACT_STATUS_REMOVED });
      expect((await grpcError(h.download(ref, h.as(listed)))).code).toBe('artifact_removed');
      await h.client.reinstateArtifact({ artifactRef: ref, reason: 'order lifted' }, h.operator());
      expect((await h.download(ref, h.as(seller))).bytes.equals(bytes)).toBe(true);
      expect((await h.download(ref, h.as(listed))).artifact.uploadedBy).toBe(listed.agentId);
    });
  });
});
