import type { CallContext } from '@exchange/platform';
import type { Caller } from '../domain/caller';
import type { PageRequest } from '../domain/records';

// The request pieces every area maps the same way.

/** Who is calling, from the metadata the gateway sent (`x-actor`, `x-agent-id`). */
export const callerOf = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId });

export function pageRequest(page: { limit: number; cursor: string } | undefined): PageRequest | undefined {
  return page === undefined ? undefined : { limit: page.limit, cursor: page.cursor };
}
