import { canonicalize, sha256Hex } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import * as repo from '../data/market.repo';
import { idempotencyScope, type Caller } from '../domain/caller';
import { idempotencyKey as checkKey } from '../domain/validation';
import type { MarketContext } from '../saga/context';

export const IDEMPOTENCY_TTL_DAYS = 30;
/** A claim whose request never completed (process died) is taken over after this long. */
const ABANDONED_AFTER_MS = 60_000;
const WAIT_STEP_MS = 50;
const WAIT_MAX_MS = 30_000;

interface Codec<Res> {
  toJSON(message: Res): unknown;
  fromJSON(object: unknown): Res;
}

/**
 * Optional idempotency of a mutation. Without a key: runs `run`. With one: the first request
 * claims (scope, rpc, key) and stores its response; the same key and payload again gets the
 * stored response with idempotent_replayed; another payload is 400 idempotency_key_reused; a
 * concurrent duplicate waits for the first. A failed request stores nothing (its claim is
 * dropped), so the same key may be retried — e.g. an award refused for funds after a top-up.
 */
export async function idempotent<Res extends { idempotentReplayed: boolean }>(
  ctx: MarketContext,
  caller: Caller,
  rpc: string,
  request: { idempotencyKey: string },
  requestJson: unknown,
  codec: Codec<Res>,
  run: () => Promise<Res>,
): Promise<Res> {
  const key = checkKey(request.idempotencyKey);
  if (key === undefined) return run();
  const fields = { ...(requestJson as Record<string, unknown>) };
  delete fields['idempotencyKey'];
  const hash = sha256Hex(canonicalize({ rpc, ...fields }));
  const scope = idempotencyScope(caller);
  const started = Date.now();
  for (;;) {
    const now = ctx.clock();
    const existing = await claim(ctx, scope, rpc, key, hash, now);
    if (existing === null) break; // ours
    if (existing.requestHash !== hash) {
      throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
    }
    if (existing.response !== null) return { ...codec.fromJSON(existing.response), idempotentReplayed: true };
    if (Date.now() - started > WAIT_MAX_MS) throw errors.aborted('idempotency_in_progress', 'a request with this idempotency_key is still running');
    await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  }
  try {
    const response = await run();
    await repo.completeIdempotency(ctx.pool, scope, rpc, key, codec.toJSON({ ...response, idempotentReplayed: false }));
    return response;
  } catch (err) {
    await repo.releaseIdempotency(ctx.pool, scope, rpc, key).catch(() => undefined);
    throw err;
  }
}

async function claim(ctx: MarketContext, scope: string, rpc: string, key: string, hash: string, now: Date) {
  const existing = await repo.claimIdempotency(ctx.pool, scope, rpc, key, hash, now, IDEMPOTENCY_TTL_DAYS);
  if (existing === null || existing.response !== null) return existing;
  // A claim left by a process that died before completing it: take it over.
  if (Date.now() - existing.createdAt.getTime() > ABANDONED_AFTER_MS && existing.requestHash === hash) {
    await repo.releaseIdempotency(ctx.pool, scope, rpc, key);
    return repo.claimIdempotency(ctx.pool, scope, rpc, key, hash, now, IDEMPOTENCY_TTL_DAYS);
  }
  return existing;
}
