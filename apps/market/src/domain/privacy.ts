import type { Caller } from './caller';
import { actingAgent } from './caller';
import type { Contract } from './model';

/**
 * Whether `caller` sees a private buyer's id: the buyer, the awarded seller, the operator on its
 * own, and internal service calls (no actor, no acting agent) do; everyone else sees the alias.
 */
export function seesBuyer(c: Pick<Contract, 'buyerPrivate' | 'buyerId' | 'sellerId'>, caller: Pick<Caller, 'actor' | 'agentId'>): boolean {
  if (!c.buyerPrivate) return true;
  const agent = actingAgent({ actor: caller.actor, agentId: caller.agentId, traceId: null });
  return agent === null || agent === c.buyerId || (c.sellerId !== null && agent === c.sellerId);
}

/** The contract as `caller` may see it: a private buyer's id emptied for non-parties. */
export function contractView(c: Contract, caller: Pick<Caller, 'actor' | 'agentId'>): Contract {
  return seesBuyer(c, caller) ? c : { ...c, buyerId: '' };
}

/** The acting agent the buyer_id filter must hide private contracts from, if any. */
export function privateFilterViewer(caller: Pick<Caller, 'actor' | 'agentId'>): string | undefined {
  return actingAgent({ actor: caller.actor, agentId: caller.agentId, traceId: null }) ?? undefined;
}
