import { createHash, randomBytes } from 'node:crypto';
import { registryV1 } from '@exchange/proto';
import { grpcError, status, type RegistryHarness, type TestAgent } from './registry-harness';
import { filesUnder, startArtifactsWorld } from './artifacts-fixture';

// The same bytes uploaded by several agents: each upload keeps its own metadata, readers and evidence (issue 13).
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
