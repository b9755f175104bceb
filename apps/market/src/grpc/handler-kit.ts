import { errors, type CallContext } from '@exchange/platform';
import type { WireEnum } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import type { MarketRuntime } from '../service/runtime';
import type { IdempotencyDeps } from './idempotency';

// What every area's handlers share: their deps, the caller of a call and the request enum checks.

/** A handler factory's deps: the log of `unary` and, for the mutations, idempotency. */
export type HandlerDeps = IdempotencyDeps & Pick<MarketRuntime, 'logger'>;

/** Who calls, as the gateway forwarded it (actor, acting agent, trace). */
export const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, agentId: ctx.agentId, traceId: ctx.traceId });

/** An enum a request must carry, read through its generated wire table (UNSPECIFIED/unknown → 400 validation_failed naming the field). */
export function requiredEnum<D extends string>(table: WireEnum<number, D>, value: number, field: string): D {
  const d = table.toWire(value);
  if (d === undefined) throw errors.invalidArgument('validation_failed', `${field} is required`, { field });
  return d;
}

/** An optional filter enum: absent or UNSPECIFIED → no filter. */
export function optionalEnum<D extends string>(table: WireEnum<number, D>, value: number | undefined, field: string): D | undefined {
  if (value === undefined || value === 0) return undefined;
  const d = table.toWire(value);
  if (d === undefined) throw errors.invalidArgument('validation_failed', `${field} is not a known value`, { field });
  return d;
}
