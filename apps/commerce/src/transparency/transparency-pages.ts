import { decodeCursor, encodeCursor, errors, resolveLimit } from '@exchange/platform';
import type { AgentCurrencyKey } from './rollups.model';

// Cursors of the transparency lists, in the platform's opaque cursor form: shadow compare pages
// by (created_at, session id) of the last shadow given; spend-savings by (agent, currency) — its
// id is "<currency>:<agent id>" (a currency has no colon) and its instant unused (epoch).

const invalidCursor = () => errors.invalidArgument('invalid_cursor', 'cursor is not valid');
const CURRENCY = /^[A-Z]{3,10}$/;

export interface PageInput {
  limit?: number;
  cursor?: string;
}

export function shadowCursor(last: { createdAt: Date; commerceSessionId: string }): string {
  return encodeCursor({ createdAt: last.createdAt, id: last.commerceSessionId });
}

/** The items after the cursor's (createdAt, id), at most limit, and the next cursor ("" on the last page). */
export function pageAfter<T>(all: readonly T[], keyOf: (item: T) => { createdAt: Date; commerceSessionId: string }, page: PageInput | undefined): { items: T[]; nextCursor: string } {
  const limit = resolveLimit(page?.limit);
  let rest = all;
  if (page?.cursor) {
    const { createdAt, id } = decodeCursor(page.cursor);
    if (!id.startsWith('cs_')) throw invalidCursor();
    const t = createdAt.getTime();
    rest = all.filter((item) => {
      const k = keyOf(item);
      return k.createdAt.getTime() > t || (k.createdAt.getTime() === t && k.commerceSessionId > id);
    });
  }
  const items = rest.slice(0, limit);
  return { items, nextCursor: rest.length > limit ? shadowCursor(keyOf(items[items.length - 1])) : '' };
}

export function agentCurrencyCursor(k: AgentCurrencyKey): string {
  return encodeCursor({ createdAt: new Date(0), id: `${k.currency}:${k.agentId}` });
}

export function agentCurrencyAfter(cursor: string | undefined): AgentCurrencyKey | null {
  if (!cursor) return null;
  const { id } = decodeCursor(cursor);
  const sep = id.indexOf(':');
  const currency = id.slice(0, sep);
  const agentId = id.slice(sep + 1);
  if (sep < 0 || !CURRENCY.test(currency) || agentId === '') throw invalidCursor();
  return { agentId, currency };
}
