// Errors surfaced by the SDK. A non-2xx answer from the exchange becomes an ExchangeApiError that
// carries the RFC 9457 problem fields; a failure to get any answer becomes an ExchangeNetworkError.

export interface ProblemFieldError {
  pointer: string;
  message: string;
}

/** The problem+json body the gateway returns (DESIGN §3); extra members are kept in `raw`. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: ProblemFieldError[];
  details?: Record<string, unknown>;
  [member: string]: unknown;
}

export interface ExchangeApiErrorInit {
  status: number;
  code: string;
  title: string;
  detail: string;
  requestId: string | null;
  errors?: ProblemFieldError[];
  details?: Record<string, unknown>;
  retryAfter?: number | null;
  problem?: Problem | null;
}

export class ExchangeApiError extends Error {
  readonly status: number;
  /** Stable problem code, e.g. `agent_id_exists`. */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | null;
  readonly errors: ProblemFieldError[];
  /** Extension members of the problem, e.g. `{current, wanted}` or `{resets_at, remaining_today, category}`. */
  readonly details: Record<string, unknown> | undefined;
  /** Seconds to wait before retrying (from `Retry-After`), set on 429/503 when the server sends it. */
  readonly retryAfter: number | null;
  /** The parsed problem body as received, or null when the body was not JSON. */
  readonly problem: Problem | null;
  /** The idempotency key the failed wallet mutation was sent with: retry with the same key. */
  idempotencyKey?: string;

  constructor(init: ExchangeApiErrorInit) {
    super(`${init.status} ${init.code}: ${init.detail}`);
    this.name = 'ExchangeApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.details = init.details;
    this.retryAfter = init.retryAfter ?? null;
    this.problem = init.problem ?? null;
  }
}

export type NetworkErrorCode = 'network_error' | 'timeout';

/** The request never produced an HTTP answer (connection refused, DNS, timeout, aborted). */
export class ExchangeNetworkError extends Error {
  readonly code: NetworkErrorCode;
  readonly method: string;
  readonly url: string;
  /**
   * The idempotency key the wallet mutation was sent with. No answer arrived, so the mutation may
   * or may not have happened: retry with this same key and the exchange executes it at most once.
   */
  idempotencyKey?: string;

  constructor(code: NetworkErrorCode, method: string, url: string, cause: unknown) {
    super(`${method} ${url} failed: ${code === 'timeout' ? 'request timed out' : describeCause(cause)}`, { cause });
    this.name = 'ExchangeNetworkError';
    this.code = code;
    this.method = method;
    this.url = url;
  }
}

// Duck-typed: fetch's errors may come from another realm (jest's vm), where instanceof fails.
interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}
function asErrorLike(value: unknown): ErrorLike | null {
  return typeof value === 'object' && value !== null ? (value as ErrorLike) : null;
}

/** True for the AbortSignal.timeout / abort rejection of fetch. */
export function isTimeoutLike(err: unknown): boolean {
  const name = asErrorLike(err)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

// fetch reports "fetch failed" and hides the useful part (ECONNREFUSED…) in `cause`.
function describeCause(cause: unknown): string {
  const outer = asErrorLike(cause);
  if (!outer) return String(cause);
  const message = typeof outer.message === 'string' ? outer.message : String(cause);
  const inner = asErrorLike(outer.cause);
  if (!inner) return message;
  const detail = typeof inner.code === 'string' ? inner.code : typeof inner.message === 'string' ? inner.message : '';
  return detail ? `${message} (${detail})` : message;
}

export function isExchangeError(err: unknown): err is ExchangeApiError | ExchangeNetworkError {
  return err instanceof ExchangeApiError || err instanceof ExchangeNetworkError;
}
