import { resolveLimit, toPage } from '@exchange/platform';
import type { TelemetryRuntime } from '../service/runtime';
import { parseEventFilter, type EventFilterInput } from '../domain/event-filter';
import { jsonlChunks } from '../domain/jsonl-export';
import { requireOperator, type Caller } from '../domain/operator-only';
import { PRIVATE_BUYER_MARK, withCurrentAlias } from '../domain/public-alias';
import { eventCursorKey, eventKeyOf, type OperatorEvent, type PublicEvent } from '../domain/stored-event';
import { FeedsRepo, type PublicRow } from './feeds.repo';

export interface PageInput {
  limit?: number;
  cursor?: string;
}

export interface EventPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A public row as a stranger reads it: a private buyer's alias (and where the buyer acted) is the
 * contract's alias now; a contract no longer private shows its marks as ''.
 */
function toPublicEvent(r: PublicRow): PublicEvent {
  const rewrite = r.buyerPrivate || r.publicJson.includes(PRIVATE_BUYER_MARK);
  const dataJson = rewrite ? JSON.stringify(withCurrentAlias(JSON.parse(r.publicJson), r.buyerPrivate ? r.buyerAlias : null)) : r.publicJson;
  return {
    seq: r.seq,
    eventId: r.eventId,
    type: r.type,
    subjectId: r.subjectId,
    occurredAt: r.occurredAt,
    contractId: r.contractId,
    listingId: r.listingId,
    dataJson,
  };
}

/** The public and operator event lists and the operator export, in store order (seq). */
export class FeedsService {
  private readonly repo: FeedsRepo;

  constructor(deps: Pick<TelemetryRuntime, 'pool'>) {
    this.repo = new FeedsRepo({ pool: deps.pool });
  }

  async listPublic(filter: EventFilterInput, page: PageInput): Promise<EventPage<PublicEvent>> {
    const query = parseEventFilter(filter);
    const limit = resolveLimit(page.limit);
    const rows = await this.repo.publicPage(query, eventKeyOf(page.cursor), limit + 1);
    const { data, nextCursor } = toPage(rows, limit, eventCursorKey);
    return { items: data.map(toPublicEvent), nextCursor };
  }

  async listOperator(caller: Caller | undefined, filter: EventFilterInput, page: PageInput): Promise<EventPage<OperatorEvent>> {
    requireOperator(caller, 'operator events');
    const query = parseEventFilter(filter);
    const limit = resolveLimit(page.limit);
    const rows = await this.repo.operatorPage(query, eventKeyOf(page.cursor), limit + 1);
    const { data, nextCursor } = toPage(rows, limit, eventCursorKey);
    return { items: data, nextCursor };
  }

  /** Checks the caller and the filter at once (so a refusal comes before any byte), then streams JSONL chunks. */
  openExport(caller: Caller | undefined, filter: EventFilterInput): AsyncGenerator<Buffer> {
    requireOperator(caller, 'operator events');
    const query = parseEventFilter(filter);
    return jsonlChunks((after, limit) => this.repo.operatorPage(query, after, limit));
  }
}
