import { canonicalize, sha256Hex } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { isLockTimeout } from '@exchange/db';
import * as idempotencyRepo from '../data/idempotency.repo';
import { idempotencyScope, type Caller } from '../domain/caller';
import { idempotencyKey as checkKey } from '../domain/validation';
import type { MarketRuntime } from '../service/runtime';

export const IDEMPOTENCY_TTL_DAYS = 30;
/** How long a duplicate waits for the first request; below the gateway's 5 s deadline. */
export const DUPLICATE_WAIT_MS = 4000;

/** The claims pool (one connection per open claim) and the clock that dates the record. */
export type IdempotencyDeps = Pick<MarketRuntime, 'claims' | 'clock'>;

interface Codec<Res> {
  toJSON(message: Res): unknown;
  fromJSON(object: unknown): Res;
}

/**
 * Optional idempotency of a mutation. Without a key: runs `run`. With one: the request claims
 * (scope, rpc, key) in a transaction on the claims pool that stays open while `run` works and
 * commits together with the stored response. So a concurrent duplicate waits for the first
 * (up to DUPLICATE_WAIT_MS, then 409 idempotency_in_progress) and then replays it; another
 * payload is 400 idempotency_key_reused; a failed request — or one whose process died — leaves
 * no record, and the same key may be retried (e.g. an award refused for funds, after a top-up).
 */
export async function idempotent<Res extends { idempotentReplayed: boolean }>(
  ctx: IdempotencyDeps,
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
  const client = await ctx.claims.connect();
  let done = false;
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = '${DUPLICATE_WAIT_MS}ms'`);
    let existing: idempotencyRepo.IdempotencyRow | null;
    try {
      existing = await idempotencyRepo.claimIdempotency(client, scope, rpc, key, hash, ctx.clock(), IDEMPOTENCY_TTL_DAYS);
    } catch (err) {
      if (isLockTimeout(err)) throw errors.aborted('idempotency_in_progress', 'a request with this idempotency_key is still running');
      throw err;
    }
    if (existing !== null) {
      if (existing.requestHash !== hash) {
        throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
      }
      return { ...codec.fromJSON(existing.response), idempotentReplayed: true };
    }
    const response = await run();
    await idempotencyRepo.completeIdempotency(client, scope, rpc, key, codec.toJSON({ ...response, idempotentReplayed: false }));
    await client.query('COMMIT');
    done = true;
    return response;
  } finally {
    if (!done) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
