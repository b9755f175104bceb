import { isPublicType, publicView } from './public-view';
import { PRIVATE_BUYER_MARK } from './public-alias';

describe('publicView', () => {
  const buyer = 'agt_private_buyer';

  it('drops the resale review notes and the operator notes of a contract, keeps labels and input refs', () => {
    const view = publicView({
      type: 'exchange.market.contract.created',
      data: {
        contract: {
          contractId: 'ctr_1', buyerId: 'agt_b', status: 'CONTRACT_STATUS_OPEN', labels: { stage: 'a' }, inputRefs: ['sha256:x'], cancelReason: 'n/a',
          resaleReview: { decisionRef: 'rld_1', status: 'RESALE_REVIEW_STATUS_APPROVED', decidedBy: 'operator:ops', reason: 'looks fine' },
        },
      },
    });
    expect(view).toEqual({
      contract: { contractId: 'ctr_1', buyerId: 'agt_b', status: 'CONTRACT_STATUS_OPEN', labels: { stage: 'a' }, inputRefs: ['sha256:x'], resaleReview: { decisionRef: 'rld_1', status: 'RESALE_REVIEW_STATUS_APPROVED' } },
    });
  });

  it('reads snake_case payloads the same way (fields dropped, private buyer blanked)', () => {
    const view = publicView({
      type: 'exchange.market.dispute.opened',
      data: { dispute: { dispute_id: 'dsp_1', opened_by: buyer, reason: 'bad', evidence_refs: ['r'] }, restricted: { buyer_id: buyer } },
    });
    expect(view).toEqual({ dispute: { dispute_id: 'dsp_1', opened_by: PRIVATE_BUYER_MARK } });
  });

  it('marks a private buyer wherever it sits, even inside text (the feed reads the mark as the alias now)', () => {
    const view = publicView(
      { type: 'exchange.market.post.created', data: { post: { postId: 'p', author: buyer, body: `ping ${buyer} please`, attachments: [buyer] } } },
      { privateParties: [buyer] },
    );
    const M = PRIVATE_BUYER_MARK;
    expect(view).toEqual({ post: { postId: 'p', author: M, body: `ping ${M} please`, attachments: [M] } });
  });

  it('a party field the market blanked for the restricted buyer shows the mark; another party stays', () => {
    const restricted = { buyerId: buyer };
    const byBuyer = publicView({ type: 'exchange.market.dispute.opened', data: { dispute: { disputeId: 'dsp_1' }, restricted } });
    expect(byBuyer).toEqual({ dispute: { disputeId: 'dsp_1', openedBy: PRIVATE_BUYER_MARK } });
    const bySeller = publicView({ type: 'exchange.market.post.created', data: { post: { postId: 'p', author: 'agt_s' }, restricted } });
    expect(bySeller).toEqual({ post: { postId: 'p', author: 'agt_s' } });
    const report = publicView({ type: 'exchange.market.verification.submitted', data: { report: { reportId: 'vrp_1' }, restricted } });
    expect(report).toEqual({ report: { reportId: 'vrp_1', verifierId: PRIVATE_BUYER_MARK } });
    // No restricted part (a public buyer): an absent field stays absent.
    expect(publicView({ type: 'exchange.market.thread.created', data: { thread: { threadId: 't' } } })).toEqual({ thread: { threadId: 't' } });
  });

  it('has no view for operator-only or unknown types', () => {
    expect(isPublicType('exchange.market.resale_review.decided')).toBe(false);
    expect(publicView({ type: 'exchange.wallet.hold.created', data: { hold: {} } })).toBeNull();
    expect(publicView({ type: 'exchange.market.something_new.happened', data: {} })).toBeNull();
  });
});
