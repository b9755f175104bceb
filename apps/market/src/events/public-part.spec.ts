import type { Post, Thread } from '../coordination/thread';
import type { Contract, Dispute, VerificationReport } from '../domain/model';
import { contractEvent, disputeEvent, postEvent, threadEvent, verificationEvent } from './public-part';

// The public part of an event never names a private buyer; `restricted` carries it.

const at = new Date('2026-01-02T03:04:05Z');
const BUYER = 'test:buyer:1';
const SELLER = 'test:seller:2';

function contract(over: Partial<Contract> = {}): Contract {
  return {
    contractId: 'ctr_1', buyerId: BUYER, title: 't', description: 'd', tags: ['x'], budget: 100_000_000n, currency: 'CREDIT',
    deadline: at, acceptanceCriteria: 'ok', verificationMode: 'buyer', verifierId: null, listingId: null, status: 'awarded',
    sellerId: SELLER, awardedOfferId: 'off_1', price: 90_000_000n, holdId: 'hld_1', escrowStatus: 'held', receiptId: null,
    disputedFrom: null, cancelReason: null, createdAt: at, updatedAt: at, awardedAt: at, settledAt: null, buyerPrivate: true,
    buyerAlias: 'anon:abcdefghijkl', buyerAliasGeneration: 1, templateId: null, workProductTemplateId: null, fixtureId: null,
    resaleOf: null, sandbox: true, correctedAt: null, correctionReceiptId: null, correctionReason: null, labels: {}, inputRefs: [],
    ...over,
  } as Contract;
}

const dispute = (openedBy: string): Dispute => ({
  disputeId: 'dsp_1', contractId: 'ctr_1', openedBy, reason: 'r', evidenceRefs: [], status: 'open', outcome: null, sellerShareBps: null,
  rationale: null, resolvedBy: null, resolvedAt: null, receiptId: null, createdAt: at, updatedAt: at,
});
const thread = (createdBy: string): Thread => ({
  threadId: 'thr_1', title: 't', tags: [], createdBy, contractId: 'ctr_1', postCount: 0, lastPostAt: null, createdAt: at, updatedAt: at,
});
const post = (author: string): Post => ({ postId: 'pst_1', threadId: 'thr_1', author, body: 'b', attachments: [], createdAt: at });
const report = (verifierId: string): VerificationReport =>
  ({ reportId: 'vrp_1', contractId: 'ctr_1', resultId: 'res_1', verifierId, verdict: 'pass', score: 1, checks: [], signature: 's', resultCreatedAt: at, createdAt: at }) as VerificationReport;

/** The JSON outside `restricted`, as a string to search. */
const publicPart = (data: unknown) => JSON.stringify({ ...(data as Record<string, unknown>), restricted: undefined });

describe('public part of market events', () => {
  it('a private buyer: contract buyer_id empty, alias kept, the id only in restricted', () => {
    const data = contractEvent(contract()) as { contract: Record<string, unknown>; restricted: unknown };
    expect(data.contract['buyerId']).toBeUndefined(); // '' is the proto3 default: toJSON leaves it out
    expect(data.contract).toMatchObject({ buyerPrivate: true, buyerAlias: 'anon:abcdefghijkl', sellerId: SELLER });
    expect(data.restricted).toEqual({ buyerId: BUYER });
    expect(publicPart(data)).not.toContain(BUYER);
  });

  it('a public buyer: buyer_id in the contract, no restricted', () => {
    const data = contractEvent(contract({ buyerPrivate: false, buyerAlias: null })) as Record<string, unknown>;
    expect(data).toMatchObject({ contract: { buyerId: BUYER } });
    expect(data).not.toHaveProperty('restricted');
  });

  it('dispute, thread, post and report: the private buyer blanked, any other party kept', () => {
    const c = contract();
    for (const data of [disputeEvent(dispute(BUYER), c), threadEvent(thread(BUYER), c), postEvent(post(BUYER), c), verificationEvent(report(BUYER), c)]) {
      expect(publicPart(data)).not.toContain(BUYER);
    }
    expect(disputeEvent(dispute(BUYER), c)).toMatchObject({ restricted: { buyerId: BUYER } });
    expect(disputeEvent(dispute(SELLER), c)).toMatchObject({ dispute: { openedBy: SELLER }, restricted: { buyerId: BUYER } });
    expect(threadEvent(thread(SELLER), c)).toMatchObject({ thread: { createdBy: SELLER }, restricted: { buyerId: BUYER } });
    expect(postEvent(post(SELLER), c)).toMatchObject({ post: { author: SELLER }, restricted: { buyerId: BUYER } });
    expect(verificationEvent(report('test:verifier:3'), c)).toMatchObject({ report: { verifierId: 'test:verifier:3' }, restricted: { buyerId: BUYER } });
    const buyerReport = verificationEvent(report(BUYER), c) as { report: object };
    expect(buyerReport).toMatchObject({ restricted: { buyerId: BUYER } });
    expect(buyerReport.report).not.toHaveProperty('verifierId'); // '' is left out of the JSON form
  });

  it('a public buyer or no contract: parties as they are, no restricted', () => {
    const pub = contract({ buyerPrivate: false });
    expect(disputeEvent(dispute(BUYER), pub)).toEqual(expect.not.objectContaining({ restricted: expect.anything() }));
    expect(disputeEvent(dispute(BUYER), pub)).toMatchObject({ dispute: { openedBy: BUYER } });
    expect(threadEvent(thread(BUYER), null)).toMatchObject({ thread: { createdBy: BUYER } });
    expect(postEvent(post(BUYER), null)).not.toHaveProperty('restricted');
    expect(verificationEvent(report(BUYER), pub)).toMatchObject({ report: { verifierId: BUYER } });
    expect(verificationEvent(report(BUYER), pub)).not.toHaveProperty('restricted');
  });
});
