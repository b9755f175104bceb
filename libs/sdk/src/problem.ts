// Turns a non-2xx HTTP answer into an ExchangeApiError. Tolerates non-problem bodies (a proxy's
// HTML 502, an empty 500) so callers always get the same error type.
import { ExchangeApiError, type Problem, type ProblemFieldError } from './errors';

export function parseRetryAfter(value: string | null, now: Date = new Date()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function asFieldErrors(value: unknown): ProblemFieldError[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .map((e) => ({ pointer: asString(e['pointer']) ?? '', message: asString(e['message']) ?? '' }));
}

function parseBody(text: string): Problem | null {
  if (text.trim() === '') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Problem) : null;
  } catch {
    return null;
  }
}

const STANDARD_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'code', 'request_id', 'errors', 'details']);

/**
 * The problem's extension members (the gateway puts e.g. `current`/`wanted` of invalid_state or
 * `resets_at` of faucet_cap_exceeded at the top level, RFC 9457 §3.2), merged with a `details`
 * object when one is sent. Undefined when there are none.
 */
function extensionMembers(problem: Problem | null): Record<string, unknown> | undefined {
  if (!problem) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(problem)) if (!STANDARD_MEMBERS.has(key)) out[key] = value;
  const nested = problem.details;
  if (typeof nested === 'object' && nested !== null && !Array.isArray(nested)) Object.assign(out, nested);
  return Object.keys(out).length > 0 ? out : undefined;
}

export function problemToError(status: number, statusText: string, headers: Headers, bodyText: string): ExchangeApiError {
  const problem = parseBody(bodyText);
  const headerRequestId = headers.get('x-request-id');
  return new ExchangeApiError({
    status,
    code: asString(problem?.code) ?? `http_${status}`,
    title: asString(problem?.title) ?? (statusText || `HTTP ${status}`),
    detail: asString(problem?.detail) ?? (problem ? '' : bodyText.slice(0, 500)),
    requestId: asString(problem?.request_id) ?? headerRequestId,
    errors: asFieldErrors(problem?.errors),
    details: extensionMembers(problem),
    retryAfter: parseRetryAfter(headers.get('retry-after')),
    problem,
  });
}
