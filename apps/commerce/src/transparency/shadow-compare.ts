import { cartKey } from './cart-key';
import { closestInTime, diffSnapshots, snapshotOf, type SessionFacts, type SessionSnapshot, type ShadowDifference } from './shadow-diff';

// Pairs every shadow session of a window with its live counterpart (same buyer, merchant and
// cart, closest in time) and sums the outcome over the whole window.

export interface ShadowComparison {
  merchantDomain: string;
  buyerAgentId: string;
  cartKey: string;
  shadow: SessionSnapshot;
  live: SessionSnapshot | null;
  differences: ShadowDifference[];
}

export interface ShadowSummary {
  shadowSessions: number;
  matched: number;
  withDifferences: number;
}

const groupKey = (f: SessionFacts, cart: string): string => JSON.stringify([f.buyerAgentId, f.merchantDomain, cart]);

/** Comparisons in the order of `shadows` (created_at, id), and the summary over all of them. */
export function compareShadows(shadows: readonly SessionFacts[], lives: readonly SessionFacts[]): { comparisons: ShadowComparison[]; summary: ShadowSummary } {
  const liveGroups = new Map<string, SessionFacts[]>();
  for (const live of lives) {
    const key = groupKey(live, cartKey(live.lineItems));
    const group = liveGroups.get(key);
    if (group) group.push(live);
    else liveGroups.set(key, [live]);
  }
  const summary: ShadowSummary = { shadowSessions: 0, matched: 0, withDifferences: 0 };
  const comparisons = shadows.map((shadowFacts): ShadowComparison => {
    const cart = cartKey(shadowFacts.lineItems);
    const liveFacts = closestInTime(shadowFacts.createdAt, liveGroups.get(groupKey(shadowFacts, cart)) ?? []);
    const shadow = snapshotOf(shadowFacts);
    const live = liveFacts ? snapshotOf(liveFacts) : null;
    const differences = live ? diffSnapshots(shadow, live) : [];
    summary.shadowSessions += 1;
    if (live) summary.matched += 1;
    if (differences.length > 0) summary.withDifferences += 1;
    return { merchantDomain: shadowFacts.merchantDomain, buyerAgentId: shadowFacts.buyerAgentId, cartKey: cart, shadow, live, differences };
  });
  return { comparisons, summary };
}
