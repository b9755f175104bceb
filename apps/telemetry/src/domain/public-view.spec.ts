import { isPublicType, publicView } from './public-view';

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
    expect(view).toEqual({ dispute: { dispute_id: 'dsp_1', opened_by: '' } });
  });

  it('blanks a private buyer wherever it sits, even inside text', () => {
    const view = publicView(
      { type: 'exchange.market.post.created', data: { post: { postId: 'p', author: buyer, body: `ping ${buyer} please`, attachments: [buyer] } } },
      { privateParties: [buyer] },
    );
    expect(view).toEqual({ post: { postId: 'p', author: '', body: 'ping  please', attachments: [''] } });
  });

  it('has no view for operator-only or unknown types', () => {
    expect(isPublicType('exchange.market.resale_review.decided')).toBe(false);
    expect(publicView({ type: 'exchange.wallet.hold.created', data: { hold: {} } })).toBeNull();
    expect(publicView({ type: 'exchange.market.something_new.happened', data: {} })).toBeNull();
  });
});
