import type { CallContext } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import type { Keyed, PageQuery } from '../domain/wallet.commands';
import type { Trace } from '../domain/metering.ports';
import type { Caller } from '../events/wallet.events';

// Request-side helpers every area's handlers share: who called, a keyed request as a command,
// pages in and out.

export const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, traceId: ctx.traceId });

/** The request id and trace forwarded to another service (the registry). */
export const traceOf = (ctx: CallContext): Trace => ({ requestId: ctx.requestId, traceId: ctx.traceId });

/** A keyed request as a command: the fields as sent, plus its proto3 JSON for the fingerprint. */
export function keyed<R extends { idempotencyKey: string }>(codec: { toJSON(message: R): unknown }, req: R): R & Keyed {
  return { ...req, requestJson: codec.toJSON(req) as Record<string, unknown> };
}

export function pageQuery(page: walletV1.ListDepositsRequest['page']): PageQuery | undefined {
  return page && { cursor: page.cursor, limit: page.limit };
}

export function pageInfo(nextCursor: string | null): { nextCursor: string } {
  return { nextCursor: nextCursor ?? '' };
}
