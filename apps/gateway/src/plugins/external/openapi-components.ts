// Post-processing of the generated OpenAPI document, in one place instead of on every route:
// - the shared schemas of responses become `components.schemas` (each TypeBox object exported by
//   src/schemas/common.ts or an area's schema modules, `AREAS[].schemas` — Agent, Contract, … —
//   found by its exact JSON, Money by its `{amount, currency}` shape, every `{data, next_cursor}` page of one as `<Name>Page`, and Problem), used by `$ref`;
// - the headers every operation takes or answers (X-Request-Id, Idempotency-Key, X-Agent-*,
//   Retry-After, RateLimit-*, Idempotent-Replayed, Allow) as `components.parameters/headers`;
// - the 405 answer of a known path asked with another method.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Canonical text of a schema as it appears in the document (symbols and undefined dropped, keys sorted). */
function keyOf(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

// fastify-swagger moves a response schema's description and examples up to the response, and a
// property may carry its own description: annotations at the root do not make a schema different.
const ANNOTATIONS = new Set(['description', 'examples', 'example', 'title']);
const shapeKey = (schema: Json) => keyOf(Object.fromEntries(Object.entries(schema).filter(([k]) => !ANNOTATIONS.has(k))));

interface Named {
  name: string;
  /** The exported schema's own description (an occurrence may carry another one). */
  description?: string;
}

/** Exported resource schemas by their JSON: object schemas with properties, named by their export. */
function namedSchemas(modules: Array<Record<string, unknown>>): Map<string, Named> {
  const byKey = new Map<string, Named>();
  for (const mod of modules) {
    for (const [name, value] of Object.entries(mod)) {
      if (!/^[A-Z]/.test(name) || !isObject(value) || value['type'] !== 'object' || !isObject(value['properties'])) continue;
      // Query and path schemas become parameters, bodies stay inline (their own shape is the operation's).
      if (/(Query|Params|Body|Input|Request)$/.test(name) || name === 'Money') continue;
      const key = shapeKey(JSON.parse(JSON.stringify(value)) as Json);
      if (!byKey.has(key)) byKey.set(key, { name, description: typeof value['description'] === 'string' ? value['description'] : undefined });
    }
  }
  return byKey;
}

export const HEADERS = {
  XRequestId: {
    description: 'The request id (yours when you sent a sane `X-Request-Id`, else `req_<uuidv7>`); quote it when you report a problem',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  RateLimitLimit: { description: 'Requests allowed in the current window', schema: { type: 'integer', minimum: 0 } },
  RateLimitRemaining: { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the window resets', schema: { type: 'integer', minimum: 0 } },
  IdempotentReplayed: {
    description: '`true` when this is the stored outcome of an earlier request with the same idempotency key (nothing was executed again)',
    schema: { type: 'string', enum: ['true'] },
  },
  Allow: { description: 'The methods this path serves', schema: { type: 'string' } },
} as const;

const header = (name: keyof typeof HEADERS) => ref('headers', name);

export const PARAMETERS = {
  XRequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'Your id for this request (`[A-Za-z0-9][A-Za-z0-9._:-]{0,127}`), echoed in `X-Request-Id` and every problem',
    schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Same as body `idempotency_key` (1–255 printable ASCII; both and different → 400 `idempotency_key_mismatch`). Required by balance mutations; a retry with the same key never executes twice',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  XAgentId: { name: 'X-Agent-Id', in: 'header', required: false, description: 'Agent-signed request: the signing agent; with the operator token: the agent the operator acts for', schema: { type: 'string' } },
  XAgentTimestamp: { name: 'X-Agent-Timestamp', in: 'header', required: false, description: 'Agent-signed request: unix seconds, within ±300 s', schema: { type: 'string', pattern: '^[0-9]{1,12}$' } },
  XAgentNonce: {
    name: 'X-Agent-Nonce',
    in: 'header',
    required: false,
    description: 'Agent-signed request: 16–64 of A–Z a–z 0–9 - _, new for every request (a reuse → 401 `agent_nonce_reused`)',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' },
  },
  XAgentSignature: { name: 'X-Agent-Signature', in: 'header', required: false, description: 'Agent-signed request: base64 ed25519 signature (see /skill.md section 5)', schema: { type: 'string' } },
} as const;

const PROBLEM_CONTENT = { 'application/problem+json': { schema: ref('schemas', 'Problem') } };

export const METHOD_NOT_ALLOWED = {
  description: 'The path exists but not with this method: `method_not_allowed`, the methods it serves in `Allow`',
  headers: { Allow: header('Allow'), 'X-Request-Id': header('XRequestId') },
  content: PROBLEM_CONTENT,
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Money as the exchange answers it (`{amount, currency}`; requests keep their own, validating, copy inline). */
function isMoney(node: Json): boolean {
  const props = node['properties'];
  return node['type'] === 'object' && isObject(props) && Object.keys(props).sort().join() === 'amount,currency';
}
const MONEY_DESCRIPTION = 'An amount (decimal string, at most 6 fraction digits) and its currency, as the exchange answers it';

/** Replaces, bottom-up, every subschema equal to a named one by its `$ref`. */
function factor(node: unknown, names: Map<string, Named>, found: Map<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((n) => factor(n, names, found));
  if (!isObject(node)) return node;
  let named = names.get(shapeKey(node));
  if (!named && isMoney(node)) named = { name: 'Money', description: MONEY_DESCRIPTION };
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : factor(v, names, found);
  if (named) {
    const shape = Object.fromEntries(Object.entries(out).filter(([k]) => !ANNOTATIONS.has(k)));
    const component = { ...shape, ...(named.description ? { description: named.description } : {}) };
    if (!found.has(named.name)) found.set(named.name, component);
    if (keyOf(found.get(named.name)) === keyOf(component)) {
      // What this occurrence says of itself stays beside the $ref (allowed in OpenAPI 3.1).
      const own = typeof node['description'] === 'string' && node['description'] !== named.description ? { description: node['description'] } : {};
      return { ...ref('schemas', named.name), ...own };
    }
  }
  // A page of a named resource: {data: [<Name>], next_cursor}.
  const props = out['properties'];
  if (out['type'] === 'object' && isObject(props) && Object.keys(props).sort().join() === 'data,next_cursor') {
    const items = isObject(props['data']) ? (props['data'] as Json)['items'] : undefined;
    const item = isObject(items) && typeof items['$ref'] === 'string' ? items['$ref'].split('/').pop() : undefined;
    if (item) {
      const pageName = `${item}Page`;
      if (!found.has(pageName)) found.set(pageName, out);
      if (keyOf(found.get(pageName)) === keyOf(out)) return ref('schemas', pageName);
    }
  }
  return out;
}

/** The document with shared schemas, headers, parameters and the 405 answer factored into components. */
export function factorComponents<T extends Json>(document: T, schemaModules: Array<Record<string, unknown>>): T {
  const names = namedSchemas(schemaModules);
  const found = new Map<string, unknown>();
  const paths: Json = {};
  for (const [path, item] of Object.entries((document['paths'] ?? {}) as Record<string, Json>)) {
    const ops: Json = {};
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.includes(method) || !isObject(value)) {
        ops[method] = value;
        continue;
      }
      const op: Json = { ...value };
      const signed = Array.isArray(op['security']) && (op['security'] as Json[]).some((s) => isObject(s) && 'agentSignature' in s);
      const idempotent = method === 'post' && path.startsWith('/v1/');
      const extra = [
        ref('parameters', 'XRequestId'),
        ...(idempotent ? [ref('parameters', 'IdempotencyKey')] : []),
        ...(signed ? ['XAgentId', 'XAgentTimestamp', 'XAgentNonce', 'XAgentSignature'].map((p) => ref('parameters', p)) : []),
      ];
      op['parameters'] = [...((op['parameters'] as unknown[]) ?? []), ...extra];
      // Request bodies stay whole: each is its operation's own input, and tools that read them
      // (tools/fuzz) see every constraint without resolving references.
      const responses: Json = {};
      for (const [status, response] of Object.entries((op['responses'] ?? {}) as Record<string, Json>)) {
        const headers: Json = { ...((response['headers'] as Json) ?? {}), 'X-Request-Id': header('XRequestId') };
        if (status === '429') Object.assign(headers, { 'Retry-After': header('RetryAfter'), 'RateLimit-Limit': header('RateLimitLimit'), 'RateLimit-Remaining': header('RateLimitRemaining'), 'RateLimit-Reset': header('RateLimitReset') });
        if (status === '503') headers['Retry-After'] = header('RetryAfter');
        if (idempotent && /^2/.test(status)) headers['Idempotent-Replayed'] = header('IdempotentReplayed');
        const next: Json = { ...response, headers };
        if (isObject(response['content'])) {
          const content: Json = {};
          for (const [type, media] of Object.entries(response['content'] as Record<string, Json>)) {
            const schema = media['schema'];
            const factored = factor(schema, names, found);
            // An example carried by the inline schema stays visible next to the $ref.
            const examples = isObject(schema) && Array.isArray(schema['examples']) ? schema['examples'] : undefined;
            content[type] = { ...media, schema: factored, ...(media['example'] === undefined && examples && factored !== schema && isObject(factored) && '$ref' in factored ? { example: examples[0] } : {}) };
          }
          next['content'] = content;
        }
        responses[status] = next;
      }
      if (path !== '/api-reference') responses['405'] = METHOD_NOT_ALLOWED;
      op['responses'] = responses;
      ops[method] = op;
    }
    paths[path] = ops;
  }
  const components = (document['components'] ?? {}) as Json;
  const schemas: Json = { ...((components['schemas'] as Json) ?? {}) };
  for (const name of [...found.keys()].sort()) if (!(name in schemas)) schemas[name] = found.get(name);
  return {
    ...document,
    paths,
    components: {
      ...components,
      schemas,
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: { ...((components['responses'] as Json) ?? {}), MethodNotAllowed: METHOD_NOT_ALLOWED },
    },
  };
}
