import { status } from '@grpc/grpc-js';
import { marketV1 } from '@exchange/proto';
import { contractInput, grpcError, offerInput, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

const checks = [{ name: 'has summary', ok: true }];
const ALIAS = /^anon:[a-z2-7]{12}$/;

describe('market: private buyers (buyer_alias) and ListVerificationReports (gRPC)', () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_privacy' });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const createPrivate = async (buyer: TestAgent) =>
    (await h.client.createContract(contractInput({ buyerPrivate: true }), h.as(buyer))).contract!;

  it('mints the buyer alias after creating a private contract and hides buyer_id from non-parties only', async () => {
    const buyer = h.newAgent('pbuyer');
    const seller = h.newAgent('pseller');
    const stranger = h.newAgent('pstranger');
    await h.fund(buyer.agentId, '150');
    const created = await createPrivate(buyer);
    expect(created).toMatchObject({ buyerId: buyer.agentId, buyerPrivate: true });
    expect(created.buyerAlias).toMatch(ALIAS);
    expect(h.identity.aliases.get(`${created.contractId}|buyer`)).toEqual({ alias: created.buyerAlias, agentId: buyer.agentId });
    const id = created.contractId;
    const view = async (opts: Parameters<typeof h.client.getContract>[1]) => (await h.client.getContract({ contractId: id }, opts)).contract!;

    expect(await view(h.as(stranger))).toMatchObject({ buyerId: '', buyerAlias: created.buyerAlias, buyerPrivate: true });
    expect(await view(h.as(buyer))).toMatchObject({ buyerId: buyer.agentId, buyerAlias: created.buyerAlias });
    expect(await view(h.operator())).toMatchObject({ buyerId: buyer.agentId });
    expect(await view({ ...h.operator(), agentId: stranger.agentId })).toMatchObject({ buyerId: '' });
    expect(await view({})).toMatchObject({ buyerId: buyer.agentId }); // an internal service call

    const { offer } = await h.client.submitOffer(offerInput(id), h.as(seller));
    expect(await view(h.as(seller))).toMatchObject({ buyerId: '' }); // an offer does not make a party
    await h.client.awardOffer({ contractId: id, offerId: offer!.offerId, idempotencyKey: '' }, h.operator());
    expect(await view(h.as(seller))).toMatchObject({ buyerId: buyer.agentId });
    expect(await view(h.as(stranger))).toMatchObject({ buyerId: '' });

    // A public contract of the same buyer shows the buyer to everyone and has no alias.
    const { contract: open } = await h.client.createContract(contractInput(), h.as(buyer));
    expect(open).toMatchObject({ buyerPrivate: false, buyerAlias: undefined });
    expect(await h.client.getContract({ contractId: open!.contractId }, h.as(stranger))).toMatchObject({ contract: { buyerId: buyer.agentId } });

    // The buyer_id filter never finds the private contract for a non-party.
    const list = async (opts: Parameters<typeof h.client.listContracts>[1]) =>
      (await h.client.listContracts({ buyerId: buyer.agentId, sellerId: '', page: { limit: 50, cursor: '' } }, opts)).contracts;
    expect((await list(h.as(stranger))).map((c) => c.contractId)).toEqual([open!.contractId]);
    expect((await list(h.as(buyer))).map((c) => c.contractId)).toEqual([open!.contractId, id]);
    expect((await list(h.as(seller))).map((c) => c.contractId)).toEqual([open!.contractId, id]);
    expect((await list(h.operator())).map((c) => c.contractId)).toEqual([open!.contractId, id]);
    // Unfiltered lists still show it, redacted.
    const all = await h.client.listContracts({ buyerId: '', sellerId: '', page: { limit: 200, cursor: '' } }, h.as(stranger));
    expect(all.contracts.find((c) => c.contractId === id)).toMatchObject({ buyerId: '', buyerAlias: created.buyerAlias });
  });

  it('leaves buyer_alias empty when identity cannot mint, and mints it on the next read or by recovery', async () => {
    const buyer = h.newAgent('pbuyer2');
    h.identity.failMints(1);
    const first = await createPrivate(buyer);
    expect(first.buyerAlias).toBeUndefined();
    const stored = await h.marketSql.query('SELECT buyer_private, buyer_alias FROM contracts WHERE id = $1', [first.contractId]);
    expect(stored.rows).toEqual([{ buyer_private: true, buyer_alias: null }]);
    const read = (await h.client.getContract({ contractId: first.contractId }, h.as(buyer))).contract!;
    expect(read.buyerAlias).toMatch(ALIAS);

    h.identity.failMints(2); // the create's mint and the recovery worker's first try
    const second = await createPrivate(buyer);
    expect(second.buyerAlias).toBeUndefined();
    await h.market.workers.recover();
    await h.market.workers.recover();
    const after = await h.marketSql.query('SELECT buyer_alias FROM contracts WHERE id = $1', [second.contractId]);
    expect(after.rows[0].buyer_alias).toMatch(ALIAS);
    expect(h.identity.aliases.get(`${second.contractId}|buyer`)?.alias).toBe(after.rows[0].buyer_alias);
  });

  it('lists every verification report of a contract oldest first, paged', async () => {
    const buyer = h.newAgent('rbuyer');
    const seller = h.newAgent('rseller');
    await h.fund(buyer.agentId, '150');
    const { contract } = await h.client.createContract(contractInput(), h.as(buyer));
    const id = contract!.contractId;
    const { offer } = await h.client.submitOffer(offerInput(id), h.as(seller));
    await h.client.awardOffer({ contractId: id, offerId: offer!.offerId, idempotencyKey: '' }, h.operator());
    const reportIds: string[] = [];
    for (const verdict of ['fail', 'pass'] as const) {
      const { result } = await h.client.submitResult(
        { contractId: id, sellerId: '', summary: `try ${verdict}`, artifactRefs: [], payloadJson: undefined, idempotencyKey: '' },
        h.as(seller),
      );
      const res = await h.client.submitVerification(
        {
          contractId: id,
          verifierId: '',
          resultId: result!.resultId,
          verdict: verdict === 'pass' ? marketV1.Verdict.VERDICT_PASS : marketV1.Verdict.VERDICT_FAIL,
          score: 0.5,
          checks,
          signature: h.signReport(buyer, { verifierId: buyer.agentId, resultId: result!.resultId, verdict, score: 0.5, checks }),
          idempotencyKey: '',
        },
        h.as(buyer),
      );
      reportIds.push(res.report!.reportId);
    }
    const all = await h.client.listVerificationReports({ contractId: id, page: { limit: 50, cursor: '' } });
    expect(all.reports.map((r) => r.reportId)).toEqual(reportIds);
    expect(all.reports.map((r) => r.verdict)).toEqual([marketV1.Verdict.VERDICT_FAIL, marketV1.Verdict.VERDICT_PASS]);
    expect(all.page!.nextCursor).toBe('');

    const first = await h.client.listVerificationReports({ contractId: id, page: { limit: 1, cursor: '' } });
    expect(first.reports.map((r) => r.reportId)).toEqual([reportIds[0]]);
    const second = await h.client.listVerificationReports({ contractId: id, page: { limit: 1, cursor: first.page!.nextCursor } });
    expect(second.reports.map((r) => r.reportId)).toEqual([reportIds[1]]);
    expect(second.page!.nextCursor).toBe('');

    const { contract: empty } = await h.client.createContract(contractInput(), h.as(buyer));
    expect((await h.client.listVerificationReports({ contractId: empty!.contractId, page: undefined })).reports).toEqual([]);
    expect(await grpcError(h.client.listVerificationReports({ contractId: 'ctr_nope', page: undefined }))).toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: 'contract_not_found',
    });
  });
});
