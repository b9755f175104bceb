import type { commonV1, telemetryV1 } from '@exchange/proto';
import type { EventFilterInput } from '../domain/event-filter';
import type { Caller } from '../domain/operator-only';
import type { OperatorEvent, PublicEvent } from '../domain/stored-event';
import type { PageInput } from './feeds.service';

// Proto ⇄ domain for the event feeds, exports and timelines.

export function callerOf(actor: telemetryV1.Actor | undefined): Caller | undefined {
  return actor === undefined ? undefined : { agentId: actor.agentId, operator: actor.operator };
}

export function filterOf(filter: telemetryV1.EventFilter | undefined): EventFilterInput {
  if (filter === undefined) return {};
  return { contractId: filter.contractId, listingId: filter.listingId, eventType: filter.eventType, from: filter.from, to: filter.to };
}

export function pageOf(page: commonV1.PageRequest | undefined): PageInput {
  return { limit: page?.limit, cursor: page?.cursor };
}

export function toPageInfo(nextCursor: string | null): commonV1.PageInfo {
  return { nextCursor: nextCursor ?? '' };
}

export function toProtoPublicEvent(e: PublicEvent): telemetryV1.PublicEvent {
  return {
    eventId: e.eventId,
    type: e.type,
    subjectId: e.subjectId,
    occurredAt: e.occurredAt,
    contractId: e.contractId ?? undefined,
    listingId: e.listingId ?? undefined,
    dataJson: e.dataJson,
    seq: e.seq,
  };
}

export function toProtoOperatorEvent(e: OperatorEvent): telemetryV1.OperatorEvent {
  return {
    eventId: e.eventId,
    type: e.type,
    source: e.source,
    subjectId: e.subjectId,
    occurredAt: e.occurredAt,
    actor: e.actor ?? undefined,
    dataJson: e.dataJson,
    traceId: e.traceId ?? undefined,
    contractId: e.contractId ?? undefined,
    listingId: e.listingId ?? undefined,
    seq: e.seq,
    recordedAt: e.recordedAt,
  };
}
