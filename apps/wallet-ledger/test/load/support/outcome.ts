import { errorInfoFromGrpc } from '@exchange/platform';

/** How one call ended, as a client sees it: the response, or the problem code of the failure. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; code: string; grpcCode: number; message: string; details?: Record<string, unknown> };

export async function outcome<T>(call: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call };
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    return { ok: false, code: info.code, grpcCode: info.grpcCode, message: info.message, details: info.details };
  }
}

/** "ok" or the problem code: what the tests compare and tally. */
export function codeOf(o: Outcome<unknown>): string {
  return o.ok ? 'ok' : o.code;
}

/** Runs `count` tasks with at most `concurrency` in flight; results in task order. */
export async function inParallel<T>(count: number, concurrency: number, task: (i: number, worker: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async (w: number) => {
    for (let i = next++; i < count; i = next++) results[i] = await task(i, w);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, (_, w) => worker(w)));
  return results;
}

/** Tally of codes, e.g. { ok: 3120, insufficient_funds: 1880 } — printed in failure messages. */
export function tally(codes: Iterable<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
}


/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
