// The operations of the gateway's /openapi.json, reduced to what the fuzzer needs: where the
// inputs go (path, query, body by media type), their JSON schemas and examples, and who may call.

/** The subset of JSON Schema the gateway's TypeBox schemas produce. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  maxProperties?: number;
  default?: unknown;
  examples?: unknown[];
  example?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface BodyContent {
  mediaType: string;
  schema: JsonSchema;
  example?: unknown;
}

export interface Operation {
  /** `POST /v1/wallets/{agent_id}/faucet` */
  key: string;
  method: string;
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body: { required: boolean; contents: BodyContent[] } | null;
  /** Who may call it according to `security` (no security at all: public). */
  auth: { operator: boolean; agent: boolean; anonymous: boolean };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function authOf(security: unknown): Operation['auth'] {
  if (!Array.isArray(security) || security.length === 0) return { operator: false, agent: false, anonymous: true };
  const auth = { operator: false, agent: false, anonymous: false };
  for (const requirement of security) {
    if (!isObj(requirement)) continue;
    const names = Object.keys(requirement);
    if (names.length === 0) auth.anonymous = true;
    if (names.includes('operatorToken')) auth.operator = true;
    if (names.includes('agentSignature')) auth.agent = true;
  }
  return auth;
}

function parameterOf(p: unknown): Parameter | null {
  if (!isObj(p) || (p.in !== 'path' && p.in !== 'query') || typeof p.name !== 'string') return null;
  return {
    name: p.name,
    in: p.in,
    required: p.required === true || p.in === 'path',
    schema: isObj(p.schema) ? (p.schema as JsonSchema) : {},
    ...(p.example !== undefined ? { example: p.example } : {}),
  };
}

function bodyOf(requestBody: unknown): Operation['body'] {
  if (!isObj(requestBody) || !isObj(requestBody.content)) return null;
  const contents: BodyContent[] = Object.entries(requestBody.content).map(([mediaType, c]) => ({
    mediaType,
    schema: isObj(c) && isObj(c.schema) ? (c.schema as JsonSchema) : {},
    ...(isObj(c) && c.example !== undefined ? { example: c.example } : {}),
  }));
  return { required: requestBody.required === true, contents };
}

/** Every operation of an OpenAPI 3 document, in document order. */
export function operationsOf(doc: unknown): Operation[] {
  if (!isObj(doc) || !isObj(doc.paths)) throw new Error('not an OpenAPI document: no "paths" object');
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const params = (Array.isArray(op.parameters) ? op.parameters : []).map(parameterOf).filter((p): p is Parameter => p !== null);
      out.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: bodyOf(op.requestBody),
        auth: authOf(op.security),
      });
    }
  }
  return out;
}

/** The literal and `{param}` parts of a path template, in order. */
export function templateParts(path: string): Array<{ literal: string } | { param: string }> {
  return path
    .split(/(\{[^}]+\})/)
    .filter((s) => s !== '')
    .map((s) => (s.startsWith('{') ? { param: s.slice(1, -1) } : { literal: s }));
}
