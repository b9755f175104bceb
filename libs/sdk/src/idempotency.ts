// Idempotency keys of balance mutations (DESIGN §3). Every wallet mutation is sent with a key;
// the SDK makes one only when the caller passes none. A caller that may retry (after a timeout,
// a crash, a 5xx) must choose the key itself, store it with the intent, and send the SAME key
// again: the exchange then executes the mutation at most once and answers the first outcome.
import { ExchangeApiError, ExchangeNetworkError } from './errors';
import type { Transport, TransportResponse, RequestOptions } from './transport';

/** What the exchange said about a mutation's key. Read it with `idempotencyOf(result)`. */
export interface IdempotencyInfo {
  /** The key the request carried (the caller's, or the one the SDK generated). */
  key: string;
  /** True when the exchange answered a stored outcome (`Idempotent-Replayed: true`). */
  replayed: boolean;
  /** HTTP status of the answer (201 or 200, the same on a replay). */
  status: number;
  requestId: string | null;
}

const INFO = Symbol('exchange.idempotency');

/** A key for a new intent: `sdk-` and a random UUID (well within 1-255 printable characters). */
export function generateIdempotencyKey(): string {
  return `sdk-${globalThis.crypto.randomUUID()}`;
}

/** The idempotency details of a wallet mutation's result, or undefined for other values. */
export function idempotencyOf(result: unknown): IdempotencyInfo | undefined {
  return typeof result === 'object' && result !== null ? (result as { [INFO]?: IdempotencyInfo })[INFO] : undefined;
}

/** Attaches the info as a hidden (non-enumerable) property: JSON and equality ignore it. */
function withInfo<T>(body: T, info: IdempotencyInfo): T {
  if (typeof body === 'object' && body !== null) Object.defineProperty(body, INFO, { value: info, enumerable: false });
  return body;
}

/**
 * Sends a mutation with `idempotency_key` in the JSON body (so an agent's signature covers it).
 * On failure the key is attached to the error (`err.idempotencyKey`) for the retry.
 */
export async function sendIdempotent<T>(
  transport: Transport,
  opts: Omit<RequestOptions, 'body'> & { body: Record<string, unknown> },
  key: string | undefined,
): Promise<T> {
  const idempotencyKey = key ?? generateIdempotencyKey();
  let res: TransportResponse<T>;
  try {
    res = await transport.send<T>({ ...opts, body: { ...opts.body, idempotency_key: idempotencyKey } });
  } catch (err) {
    if (err instanceof ExchangeApiError || err instanceof ExchangeNetworkError) err.idempotencyKey = idempotencyKey;
    throw err;
  }
  return withInfo(res.body, {
    key: idempotencyKey,
    replayed: res.headers.get('idempotent-replayed') === 'true',
    status: res.status,
    requestId: res.headers.get('x-request-id'),
  });
}
