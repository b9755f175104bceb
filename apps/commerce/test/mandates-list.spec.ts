import { status } from '@grpc/grpc-js';
import { commerceV1 } from '@exchange/proto';
import { agentActor, grpcError, operatorActor, startMandatesHarness, type MandatesHarness } from './support/mandates-harness';

jest.setTimeout(60_000);

const { MandateStatus } = commerceV1;

describe('commerce ListMandates (gRPC, real PostgreSQL)', () => {
  let h: MandatesHarness;

  beforeAll(async () => {
    h = await startMandatesHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('ListMandates', () => {
    it('should list what an agent signed or was granted, newest first, page by page', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        created.push((await h.client.createMandate(h.createRequest(signer, buyer.agentId))).mandate!.mandateId);
        h.clock.advance(5);
      }
      const unrelated = h.newAgent('unrelated');
      await h.client.createMandate(h.createRequest(unrelated, unrelated.agentId));
      for (const viewer of [signer, buyer]) {
        const seen: string[] = [];
        let cursor = '';
        let pages = 0;
        do {
          const res = await h.client.listMandates({ actor: agentActor(viewer), page: { limit: 2, cursor } });
          seen.push(...res.mandates.map((m) => m.mandateId));
          cursor = res.page!.nextCursor;
          pages++;
        } while (cursor !== '');
        expect(seen).toEqual([...created].reverse());
        expect(pages).toBe(3);
      }
      const bySigner = await h.client.listMandates({ actor: agentActor(buyer), signerAgentId: unrelated.agentId, page: { limit: 50, cursor: '' } });
      expect(bySigner.mandates).toEqual([]);
    });

    it('should let the operator list every mandate, filtered by signer', async () => {
      const signer = h.newAgent('signer');
      const id = (await h.client.createMandate(h.createRequest(signer, h.newAgent('b').agentId))).mandate!.mandateId;
      const res = await h.client.listMandates({ actor: operatorActor, signerAgentId: signer.agentId, page: { limit: 0, cursor: '' } });
      expect(res.mandates.map((m) => m.mandateId)).toEqual([id]);
      const all = await h.client.listMandates({ actor: operatorActor, page: { limit: 200, cursor: '' } });
      expect(all.mandates.length).toBeGreaterThan(5);
    });

    it('should filter by the effective status (expired and exhausted derived)', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const soon = new Date(h.clock.now().getTime() + 60_000);
      const expiring = (await h.client.createMandate(h.createRequest(signer, buyer.agentId, { expiresAt: soon }))).mandate!.mandateId;
      const spentOut = (await h.client.createMandate(h.createRequest(signer, buyer.agentId))).mandate!.mandateId;
      const live = (await h.client.createMandate(h.createRequest(signer, buyer.agentId))).mandate!.mandateId;
      const paused = (await h.client.createMandate(h.createRequest(signer, buyer.agentId))).mandate!.mandateId;
      await h.sql.query(`UPDATE mandates SET spent = total_limit WHERE mandate_id = $1`, [spentOut]);
      await h.sql.query(`UPDATE mandates SET status = 'paused' WHERE mandate_id = $1`, [paused]);
      h.clock.advance(61_000);
      try {
        const ids = async (s: commerceV1.MandateStatus) =>
          (await h.client.listMandates({ actor: agentActor(signer), status: s, page: { limit: 50, cursor: '' } })).mandates.map((m) => m.mandateId);
        expect(await ids(MandateStatus.MANDATE_STATUS_EXPIRED)).toEqual([expiring]);
        expect(await ids(MandateStatus.MANDATE_STATUS_EXHAUSTED)).toEqual([spentOut]);
        expect(await ids(MandateStatus.MANDATE_STATUS_ACTIVE)).toEqual([live]);
        expect(await ids(MandateStatus.MANDATE_STATUS_PAUSED)).toEqual([paused]);
        expect(await ids(MandateStatus.MANDATE_STATUS_REVOKED)).toEqual([]);
        const listed = await h.client.listMandates({ actor: agentActor(signer), status: MandateStatus.MANDATE_STATUS_EXHAUSTED, page: { limit: 50, cursor: '' } });
        expect(listed.mandates[0].status).toBe(MandateStatus.MANDATE_STATUS_EXHAUSTED);
      } finally {
        h.clock.advance(-61_000);
      }
    });

    it('should refuse bad paging and callers without an agent', async () => {
      const actor = agentActor(h.newAgent('a'));
      expect((await grpcError(h.client.listMandates({ actor, page: { limit: 201, cursor: '' } }))).code).toBe('invalid_limit');
      expect((await grpcError(h.client.listMandates({ actor, page: { limit: 10, cursor: 'garbage!' } }))).code).toBe('invalid_cursor');
      expect((await grpcError(h.client.listMandates({ actor, status: 42 as commerceV1.MandateStatus, page: undefined }))).code).toBe('validation_failed');
      expect(await grpcError(h.client.listMandates({ actor: { agentId: '', operator: false }, page: undefined }))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'forbidden',
      });
    });
  });
});
