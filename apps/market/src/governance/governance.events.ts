import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { marketV1Events } from '@exchange/proto';
import type pg from 'pg';
import type { Caller } from '../domain/caller';
import type { Contract } from '../domain/model';
import { MARKET_EVENT_SOURCE } from '../events/market.events';
import { contractEvent } from '../events/public-part';
import { toProtoReview } from '../events/governance.encode';
import type { ResaleReview } from './resale';

// Outbox writers of governance decisions: call them inside the transaction of the change.

async function emit(client: pg.ClientBase, type: string, subjectId: string, data: unknown, caller: Caller): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({ type: `exchange.market.${type}`, source: MARKET_EVENT_SOURCE, subjectId, actor: caller.actor, traceId: caller.traceId, data }),
  );
}

export const governanceEvents = {
  /** exchange.market.resale_review.created | .decided */
  review: (client: pg.ClientBase, verb: 'created' | 'decided', r: ResaleReview, caller: Caller) =>
    emit(client, `resale_review.${verb}`, r.decisionRef, marketV1Events.ResaleReviewChanged.toJSON({ review: toProtoReview(r) }), caller),
  /** exchange.market.contract.buyer_alias_updated */
  buyerAliasUpdated: (client: pg.ClientBase, c: Contract, caller: Caller) =>
    emit(client, 'contract.buyer_alias_updated', c.contractId, contractEvent(c), caller),
};
