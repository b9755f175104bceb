import { feeOf, resolutionPlan, sellerShare } from './money';

const P = 100_000_000n; // 100 CREDIT

describe('feeOf', () => {
  it('should take floor(x × bps / 10000)', () => {
    expect(feeOf(P, 100)).toBe(1_000_000n);
    expect(feeOf(99n, 100)).toBe(0n);
    expect(feeOf(29_999_999n, 100)).toBe(299_999n);
    expect(feeOf(P, 0)).toBe(0n);
  });
});

describe('resolutionPlan with escrow held', () => {
  it('should settle the whole price with its fee for the seller', () => {
    expect(resolutionPlan({ escrowHeld: true, price: P, feeBps: 100, outcome: 'seller', sellerShareBps: null })).toEqual({
      wallet: 'settle', amount: '100000000', fee: '1000000', contractStatus: 'settled', escrowStatus: 'settled',
    });
  });
  it('should refund the hold for the buyer', () => {
    expect(resolutionPlan({ escrowHeld: true, price: P, feeBps: 100, outcome: 'buyer', sellerShareBps: null })).toEqual({
      wallet: 'refund', contractStatus: 'refunded', escrowStatus: 'released',
    });
  });
  it('should settle G = floor(P × s / 10000) with fee F(G) for a split (seller +29.7, fees +0.3, buyer −30)', () => {
    expect(sellerShare(P, 3000)).toBe(30_000_000n);
    expect(resolutionPlan({ escrowHeld: true, price: P, feeBps: 100, outcome: 'split', sellerShareBps: 3000 })).toEqual({
      wallet: 'settle', amount: '30000000', fee: '300000', contractStatus: 'split', escrowStatus: 'settled',
    });
  });
  it('should refund everything when the split share rounds to nothing', () => {
    expect(resolutionPlan({ escrowHeld: true, price: 1n, feeBps: 100, outcome: 'split', sellerShareBps: 1 })).toEqual({
      wallet: 'refund', contractStatus: 'split', escrowStatus: 'released',
    });
  });
});

describe('resolutionPlan after settlement', () => {
  it('should move nothing for the seller', () => {
    expect(resolutionPlan({ escrowHeld: false, price: P, feeBps: 100, outcome: 'seller', sellerShareBps: null })).toEqual({
      wallet: 'none', contractStatus: 'settled', escrowStatus: 'settled',
    });
  });
  it('should transfer P − F(P) back for the buyer (the fee is not returned)', () => {
    expect(resolutionPlan({ escrowHeld: false, price: P, feeBps: 100, outcome: 'buyer', sellerShareBps: null })).toEqual({
      wallet: 'transfer', amount: '99000000', contractStatus: 'refunded', escrowStatus: 'settled',
    });
  });
  it('should transfer (P − F(P)) − (G − F(G)) for a split', () => {
    // 99 − 29.7 = 69.3
    expect(resolutionPlan({ escrowHeld: false, price: P, feeBps: 100, outcome: 'split', sellerShareBps: 3000 })).toEqual({
      wallet: 'transfer', amount: '69300000', contractStatus: 'split', escrowStatus: 'settled',
    });
  });
});
