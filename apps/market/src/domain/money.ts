import type { DisputeOutcome } from './model';

export const BPS = 10_000n;

/** Fee F(x) = floor(x × feeBps / 10000), micro-units. */
export function feeOf(amount: bigint, feeBps: number): bigint {
  return (amount * BigInt(feeBps)) / BPS;
}

/** The seller's gross share of a split: G = floor(P × s / 10000). */
export function sellerShare(price: bigint, sellerShareBps: number): bigint {
  return (price * BigInt(sellerShareBps)) / BPS;
}

/** What a dispute resolution does with the money (common.md "Money on resolution"). */
export type ResolutionPlan =
  /** Escrow held: consume the hold, `amount` to the seller less `fee`; the rest back to the buyer. */
  | { wallet: 'settle'; amount: string; fee: string; contractStatus: 'settled' | 'split'; escrowStatus: 'settled' }
  /** Escrow held: the whole hold back to the buyer. */
  | { wallet: 'refund'; contractStatus: 'refunded' | 'split'; escrowStatus: 'released' }
  /** Escrow already settled: the seller pays `amount` back to the buyer (the fee is not returned). */
  | { wallet: 'transfer'; amount: string; contractStatus: 'refunded' | 'split'; escrowStatus: 'settled' }
  /** Nothing moves. */
  | { wallet: 'none'; contractStatus: 'settled' | 'refunded' | 'split'; escrowStatus: 'settled' };

/**
 * The plan for a resolution. `escrowHeld` = the buyer's hold is still active (dispute before
 * settlement); otherwise the money already reached the seller. Amounts are micro-unit strings
 * (the plan is stored as the saga step's params).
 */
export function resolutionPlan(input: {
  escrowHeld: boolean;
  price: bigint;
  feeBps: number;
  outcome: DisputeOutcome;
  sellerShareBps: number | null;
}): ResolutionPlan {
  const { price: p, feeBps, outcome } = input;
  const net = (x: bigint) => x - feeOf(x, feeBps);
  if (input.escrowHeld) {
    if (outcome === 'seller') return { wallet: 'settle', amount: p.toString(), fee: feeOf(p, feeBps).toString(), contractStatus: 'settled', escrowStatus: 'settled' };
    if (outcome === 'buyer') return { wallet: 'refund', contractStatus: 'refunded', escrowStatus: 'released' };
    const g = sellerShare(p, input.sellerShareBps ?? 0);
    // A share that rounds to nothing pays the seller nothing: the hold goes back whole.
    if (g === 0n) return { wallet: 'refund', contractStatus: 'split', escrowStatus: 'released' };
    return { wallet: 'settle', amount: g.toString(), fee: feeOf(g, feeBps).toString(), contractStatus: 'split', escrowStatus: 'settled' };
  }
  if (outcome === 'seller') return { wallet: 'none', contractStatus: 'settled', escrowStatus: 'settled' };
  const back = outcome === 'buyer' ? net(p) : net(p) - net(sellerShare(p, input.sellerShareBps ?? 0));
  const contractStatus = outcome === 'buyer' ? 'refunded' : 'split';
  if (back <= 0n) return { wallet: 'none', contractStatus, escrowStatus: 'settled' };
  return { wallet: 'transfer', amount: back.toString(), contractStatus, escrowStatus: 'settled' };
}
