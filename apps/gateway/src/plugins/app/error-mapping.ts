import { errorCodeInfo, errorInfoFromGrpc } from '@exchange/platform';
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem, type ProblemInit, type ValidationErrorItem } from './problem';

// Every error the gateway can meet, turned into a problem (DESIGN §3 "Errors"). The gRPC ⇄ HTTP
// table lives here and nowhere else.

/** DESIGN §3: INVALID_ARGUMENT 400 … DEADLINE_EXCEEDED 504 (the rest per google/rpc/code.proto). */
export const GRPC_TO_HTTP: Readonly<Record<GrpcStatus, number>> = {
  [GrpcStatus.OK]: 200,
  [GrpcStatus.CANCELLED]: 499,
  [GrpcStatus.UNKNOWN]: 500,
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.DEADLINE_EXCEEDED]: 504,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  [GrpcStatus.FAILED_PRECONDITION]: 409,
  [GrpcStatus.ABORTED]: 409,
  [GrpcStatus.OUT_OF_RANGE]: 400,
  [GrpcStatus.UNIMPLEMENTED]: 501,
  [GrpcStatus.INTERNAL]: 500,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DATA_LOSS]: 500,
  [GrpcStatus.UNAUTHENTICATED]: 401,
};

/**
 * Spending/usage caps and limits are RESOURCE_EXHAUSTED in gRPC but 403 over HTTP (DESIGN §3: 429
 * is for rate limits, which a client may simply retry; a cap needs another category or the reset).
 */
const CAP_CODES = new Set(['withdrawal_limit_exceeded']);
export function isCapCode(code: string): boolean {
  return code.endsWith('_cap_exceeded') || CAP_CODES.has(code);
}

/**
 * Codes whose HTTP status is not the one of their gRPC status. `idempotency_key_reused` is
 * INVALID_ARGUMENT (the request is wrong whatever the state) but 422 over HTTP, as Stripe and the
 * IETF Idempotency-Key draft answer a key reused with another payload.
 */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  idempotency_key_reused: 422,
  // The market's saga could not reach wallet-ledger: retry later (the step finishes on its own).
  wallet_unavailable: 503,
  // Registry (issue 5): a removed artifact is "unavailable for legal reasons" (RFC 7725); an
  // artifact over ARTIFACT_MAX_BYTES is RESOURCE_EXHAUSTED in gRPC but a body too large over HTTP.
  artifact_removed: 451,
  payload_too_large: 413,
  access_denied: 403,
  casefile_unreadable: 400,
  object_signature_invalid: 400,
  // Market integrity (issue 6): the market and wallet-ledger refuse with UNAVAILABLE and these codes.
  read_only: 503,
  market_restricted: 503,
  market_halted: 503,
};

/**
 * The HTTP status of a listed code is the one the error list (@exchange/platform error-codes.ts,
 * published in /skill.md) gives it, whatever gRPC status carried it; `kill_switch:<name>` is 503.
 * Unlisted codes keep their gRPC status's mapping.
 */
function statusOfCode(code: string): number | undefined {
  return errorCodeInfo(code)?.status ?? STATUS_BY_CODE[code] ?? (code.startsWith('kill_switch:') ? 503 : undefined);
}

/** 5xx causes whose message is never shown: the client gets a fixed code and sentence instead. */
const INTERNAL = { code: 'internal', detail: 'internal error' };
const HIDDEN_5XX: Record<number, { code: string; detail: string }> = {
  500: INTERNAL,
  501: { code: 'not_implemented', detail: 'not implemented' },
  503: { code: 'service_unavailable', detail: 'a backing service is unavailable; retry later' },
  504: { code: 'deadline_exceeded', detail: 'a backing service did not answer in time; retry later' },
};

export function isGrpcError(err: unknown): err is Error & { code: number; metadata: Metadata } {
  return (
    typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number' &&
    (err as { metadata?: unknown }).metadata instanceof Metadata
  );
}

export function problemFromGrpcError(err: unknown): ProblemInit {
  const info = errorInfoFromGrpc(err);
  const code = info.code;
  let status = GRPC_TO_HTTP[info.grpcCode] ?? 500;
  if (info.grpcCode === GrpcStatus.RESOURCE_EXHAUSTED && isCapCode(code)) status = 403;
  status = statusOfCode(code) ?? status;
  // A service may answer UNAVAILABLE on purpose (read_only, kill_switch:<name>): keep its code. So
  // for a listed 502/504 code (commerce's merchant_unavailable, merchant_timeout…): the merchant
  // failed, not the exchange, and the client needs to know which.
  const ownUnavailable = status === 503 && hasErrorCodeMetadata(err);
  const ownUpstream = (status === 502 || status === 504) && errorCodeInfo(code)?.status === status && hasErrorCodeMetadata(err);
  if (status >= 500 && !ownUnavailable && !ownUpstream) {
    const hidden = HIDDEN_5XX[status] ?? INTERNAL;
    return { status, ...hidden };
  }
  // A stored refusal served again for a repeated idempotency key is marked like a replayed success.
  const headers = info.replayed ? { 'idempotent-replayed': 'true' } : undefined;
  let detail = info.message;
  // The takedown reason is what a 451 must say (the registry sends it in details.reason).
  const reason = info.details?.reason;
  if (code === 'artifact_removed' && typeof reason === 'string' && !detail.includes(reason)) detail = `${detail}: ${reason}`;
  return { status, code, detail, extras: info.details, ...(headers ? { headers } : {}), ...(ownUnavailable && isDeliberateCode(code) ? { deliberate: true as const } : {}) };
}

/** The codes of a refusal made on purpose (read-only mode, a kill switch), whichever layer made it. */
export function isDeliberateCode(code: string): boolean {
  return code === 'read_only' || code.startsWith('kill_switch:');
}

function hasErrorCodeMetadata(err: unknown): boolean {
  return isGrpcError(err) && err.metadata.get('x-error-code').length > 0;
}

interface SchemaErrorLike {
  keyword?: string;
  instancePath?: string;
  schemaPath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const isCurrencyFormatError = (e: SchemaErrorLike) => e.keyword === 'format' && e.params?.format === 'currency';

/** TypeBox/ajv errors → `{pointer, message}` items, without the noise of union branches. */
export function validationErrorsToItems(errors: SchemaErrorLike[]): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  const seen = new Set<string>();
  const anyOfPointers = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath ?? ''));
  const push = (pointer: string, message: string) => {
    const key = `${pointer}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      items.push({ pointer, message });
    }
  };
  for (const e of errors) {
    const pointer = e.instancePath ?? '';
    if (e.keyword === 'additionalProperties') {
      const names = (e.params?.additionalProperties ?? e.params?.additionalProperty) as string[] | string | undefined;
      for (const name of Array.isArray(names) ? names : names ? [names] : []) push(`${pointer}/${name}`, 'unknown field');
      continue;
    }
    // TypeBox reports each unknown field a second time as "schema is false" under additionalProperties.
    if (e.keyword === 'boolean' && e.schemaPath?.endsWith('/additionalProperties')) {
      push(pointer, 'unknown field');
      continue;
    }
    // Branch errors of a union are summarised by its anyOf error.
    if (anyOfPointers.has(pointer) && e.keyword !== 'anyOf' && e.schemaPath?.includes('/anyOf/')) continue;
    if (e.keyword === 'anyOf') {
      push(pointer, 'does not match any allowed shape (check the type, or null where allowed)');
      continue;
    }
    if (e.keyword === 'enum' && Array.isArray(e.params?.allowedValues)) {
      push(pointer, `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`);
      continue;
    }
    if (isCurrencyFormatError(e)) {
      push(pointer, 'is not a supported currency: CREDIT or an ISO 4217 code such as USD');
      continue;
    }
    if (e.keyword === 'required') {
      const names = (e.params?.requiredProperties ?? e.params?.missingProperty) as string[] | string | undefined;
      for (const name of Array.isArray(names) ? names : names ? [names] : []) push(`${pointer}/${name}`, 'is required');
      continue;
    }
    push(pointer, e.message ?? 'is invalid');
  }
  return items;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/** Any thrown error → problem. Unknown errors become an opaque 500 (the caller logs them). */
export function problemFromError(err: unknown): ProblemInit {
  if (err instanceof HttpProblem) return err.problem;
  if (isGrpcError(err)) return problemFromGrpcError(err);
  const fe = err as FastifyError & { validation?: SchemaErrorLike[]; validationContext?: string };
  if (fe && Array.isArray(fe.validation)) {
    const part = PART_NAMES[fe.validationContext ?? 'body'] ?? 'request';
    const errors = validationErrorsToItems(fe.validation);
    const first = errors[0];
    // Only unknown currencies wrong: the services' own code for them, so a client sees one code
    // whether the gateway or a service refused it (schemas/wallets.ts CURRENCY_FORMAT).
    const currencyOnly = fe.validation.length > 0 && fe.validation.every(isCurrencyFormatError);
    return {
      status: 400,
      code: currencyOnly ? 'unsupported_currency' : 'validation_failed',
      detail: first ? `${part}${first.pointer || ''} ${first.message}` : `the ${part} does not match the schema`,
      errors,
    };
  }
  switch (fe?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'payload_too_large', detail: 'request body is larger than the limit' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'unsupported_media_type', detail: 'send the body as application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'malformed_json', detail: 'the body is empty but content-type is application/json' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'malformed_json', detail: 'the body is not valid JSON' };
  }
  if (err instanceof SyntaxError && (fe as { statusCode?: number }).statusCode === 400) {
    return { status: 400, code: 'malformed_json', detail: 'the body is not valid JSON' };
  }
  const statusCode = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, code: 'bad_request', detail: fe.message };
  }
  return { status: 500, ...INTERNAL };
}

declare module 'fastify' {
  interface FastifyInstance {
    problemFromError: typeof problemFromError;
  }
}

export default fp(
  async (fastify) => {
    fastify.decorate('problemFromError', problemFromError);
  },
  { name: 'error-mapping', dependencies: ['problem'] },
);
