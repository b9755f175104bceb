// What every answer must satisfy (DESIGN §3 "Errors", issue 12): never 5xx, every status ≥ 400
// is application/problem+json with {type, title, status, code}, and no internals (stack
// traces, SQL, file paths) in the body.

export type ViolationKind =
  | 'server_error'
  | 'not_problem_json'
  | 'bad_problem'
  | 'leak'
  | 'no_response'
  // Invariants checked with a second look (oracles.ts): a refused upload left stored, escrow
  // moved through the wallet routes, an agent-signed request accepted twice.
  | 'refused_but_stored'
  | 'escrow_moved'
  | 'replay_accepted';

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

export interface Observation {
  method: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Text that must never reach a client: it means an internal error leaked through. */
const LEAKS: ReadonlyArray<[RegExp, string]> = [
  // (inside JSON the newline is the two characters \n)
  [/(\n|\\n)\s+at [^\n]+?:\d+:\d+\)?/, 'stack trace'],
  [/node_modules\//, 'file path'],
  [/\/work\/|\/home\/|\/usr\/src\//, 'file path'],
  [/syntax error at or near|violates (unique|foreign key|check|not-null) constraint|invalid byte sequence for encoding|invalid input syntax for type/i, 'SQL error'],
  [/PrismaClient|prisma\.\w+\.\w+\(|Invalid `prisma/i, 'Prisma error'],
  [/Maximum call stack size exceeded/, 'stack overflow message'],
  [/\b(TypeError|ReferenceError|RangeError): /, 'JavaScript error'],
  [/ECONNREFUSED|ETIMEDOUT|EPIPE/, 'socket error'],
];

/**
 * The only 5xx answers that are not defects: commerce reporting that the merchant behind a
 * checkout failed (502) or did not answer in time (504), as documented (apps/commerce/README.md).
 * Any other 5xx, or these codes under another status, is still a server error.
 */
const UPSTREAM_ERRORS: Readonly<Record<string, number>> = { merchant_protocol_error: 502, merchant_unavailable: 502, merchant_timeout: 504 };

export function isDocumentedUpstreamError(status: number, body: string): boolean {
  const code = problemCode(body);
  return code !== null && Object.hasOwn(UPSTREAM_ERRORS, code) && UPSTREAM_ERRORS[code] === status;
}

export const isProblemContentType = (value: string | undefined) => /^application\/problem\+json\s*(;|$)/i.test(value ?? '');

export function checkResponse(o: Observation): Violation[] {
  const out: Violation[] = [];
  if (o.status >= 500 && !isDocumentedUpstreamError(o.status, o.body)) out.push({ kind: 'server_error', detail: `status ${o.status}` });
  if (o.status >= 400) {
    if (!isProblemContentType(o.headers['content-type'])) {
      out.push({ kind: 'not_problem_json', detail: `content-type ${JSON.stringify(o.headers['content-type'] ?? null)}` });
    } else if (o.method.toUpperCase() !== 'HEAD') {
      const shape = problemShapeErrors(o.body, o.status);
      if (shape) out.push({ kind: 'bad_problem', detail: shape });
    }
  }
  for (const [re, what] of LEAKS) {
    if (re.test(o.body)) {
      out.push({ kind: 'leak', detail: what });
      break;
    }
  }
  return out;
}

/** Why the body is not an RFC 9457 problem of this status, or null when it is one. */
export function problemShapeErrors(body: string, status: number): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'body is not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'body is not a JSON object';
  const p = parsed as Record<string, unknown>;
  const missing = ['type', 'title', 'code'].filter((k) => typeof p[k] !== 'string' || p[k] === '');
  if (missing.length > 0) return `missing ${missing.join(', ')}`;
  if (p.status !== status) return `status member ${JSON.stringify(p.status)} ≠ ${status}`;
  return null;
}

/** The problem `code` of a body, when it has one. */
export function problemCode(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed?.code === 'string' ? parsed.code : null;
  } catch {
    return null;
  }
}
