import { Type, type TSchema, type TUnsafe } from 'typebox';

// Building blocks shared by every area's schemas (DESIGN §3).

/** `<namespace>:agent:<name>` (DESIGN §3 Identifiers). */
export const AGENT_ID_PATTERN = '^[a-z0-9][a-z0-9._-]{0,62}:agent:[a-z0-9][a-z0-9._-]{0,62}$';
export const AGENT_ID_REGEX = new RegExp(AGENT_ID_PATTERN);

export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;

/** A string enum rendered as `{type: string, enum: […]}` (clean OpenAPI, typed as the union). */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** `T | null`, documented as such. */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  return Type.Union([schema, Type.Null()], options);
}

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'RFC 3339 UTC timestamp',
  examples: ['2026-11-21T18:00:00.000Z'],
});

export const AgentId = Type.String({
  pattern: AGENT_ID_PATTERN,
  maxLength: 133,
  description: 'Namespaced agent identifier `<namespace>:agent:<name>`',
  examples: ['acme:agent:buyer-1'],
});

/** Base64 (standard, padded) of a raw 32-byte ed25519 public key; exact length checked by identity. */
export const PublicKey = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9+/_-]+={0,2}$',
  description: 'Base64 (standard, padded) of the raw 32-byte ed25519 public key',
  examples: ['iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w='],
});

export const Cursor = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'Opaque cursor from `next_cursor` of the previous page',
});

export const Limit = Type.Integer({
  minimum: PAGE_LIMIT_MIN,
  maximum: PAGE_LIMIT_MAX,
  default: PAGE_LIMIT_DEFAULT,
  description: `Page size, ${PAGE_LIMIT_MIN}–${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`,
});

export const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit trail)' });

export const NextCursor = Nullable(Type.String(), { description: 'Cursor of the next page; null on the last page' });

export const ValidationErrorItem = Type.Object(
  {
    pointer: Type.String({ description: 'JSON pointer into the request part (body, query, params)' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/**
 * RFC 9457 problem details. Extension members (e.g. `current`/`wanted` of invalid_state,
 * `resets_at` of a cap) are allowed, hence additionalProperties true on this one schema.
 */
export const Problem = Type.Object(
  {
    type: Type.String({ examples: ['https://agent-exchange.dev/errors/agent_id_exists'] }),
    title: Type.String({ examples: ['Conflict'] }),
    status: Type.Integer({ examples: [409] }),
    detail: Type.String({ examples: ['agent_id already exists'] }),
    code: Type.String({ examples: ['agent_id_exists'] }),
    request_id: Type.String({ examples: ['req_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e'] }),
    errors: Type.Optional(Type.Array(ValidationErrorItem)),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details (application/problem+json)' },
);

/** `{description, content: application/problem+json}` response entry referencing the shared schema. */
const problemRef = Type.Unsafe({ $ref: 'Problem#' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: `validation_failed` with `errors[]`, malformed JSON, or a domain check',
  401: 'No credentials: `Authorization: Bearer` (or the agent signature headers) missing',
  403: 'Credentials refused, operator-only route, frozen agent, cap or limit reached, level too low, or not allowed',
  404: 'Unknown resource or route',
  409: 'Conflict with the current state (`invalid_state` names current and wanted; `insufficient_funds`; `idempotency_in_progress`)',
  413: 'Body larger than the limit',
  422: 'Idempotency key reused with a different request (`idempotency_key_reused`), or a merchant document that is not valid UCP (`profile_malformed`)',
  424: 'A document this request depends on could not be fetched (`profile_unreachable`: the merchant profile)',
  415: 'Body is not application/json',
  429: 'Rate limit exceeded; see `Retry-After`',
  451: 'Unavailable for legal reasons: the artifact was taken down (`artifact_removed`, the reason in `detail`)',
  502: 'The merchant answered outside UCP or failed (`merchant_protocol_error`, `merchant_unavailable`); nothing was paid',
  503: 'A backing service is unavailable, or read-only mode / a kill switch is on (`read_only`, `kill_switch:<name>`)',
  504: 'A backing service (or, `merchant_timeout`, the merchant) did not answer in time',
};

/** The error responses a route can give, each `application/problem+json` with the shared schema. */
export function problemResponses(...statuses: number[]) {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) {
    out[status] = Type.Unsafe({
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/problem+json': { schema: problemRef } },
    });
  }
  return out;
}

/** OpenAPI `security` per auth mode (names match the swagger plugin's securitySchemes). */
export const SECURITY = {
  public: [] as Array<Record<string, string[]>>,
  operator: [{ operatorToken: [] }] as Array<Record<string, string[]>>,
  operator_or_agent: [
    { operatorToken: [] },
    { agentId: [], agentTimestamp: [], agentNonce: [], agentSignature: [] },
  ] as Array<Record<string, string[]>>,
  /** Anonymous, or either credential (public registry reads). */
  optional: [{}, { operatorToken: [] }, { agentId: [], agentTimestamp: [], agentNonce: [], agentSignature: [] }] as Array<Record<string, string[]>>,
};
