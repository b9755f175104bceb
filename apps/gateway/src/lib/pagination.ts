import type { commonV1 } from '@exchange/proto';

// List helpers shared by every area that pages (wallets, market, registry): the proto
// PageRequest of a list query and the `next_cursor` of its answer.

/** Page request of a list query: 0 and "" mean "the default" and "from the start". */
export function pageFromQuery(q: { limit?: number; cursor?: string }): commonV1.PageRequest {
  return { limit: q.limit ?? 0, cursor: q.cursor ?? '' };
}

/** `next_cursor` travels as "" in proto when there is no next page. */
export function nextCursorToJson(page: { nextCursor: string } | undefined): string | null {
  return page && page.nextCursor !== '' ? page.nextCursor : null;
}
