// Generates the requests for one operation: valid ones (reaching the services with real ids)
// and ones hostile in exactly one place — the JSON body (schema-guided mutation), the body as a
// whole, a path parameter, the query, a header or the method — each with every kind of
// credentials.
import fc from 'fast-check';
import { archiveVariant, multipartVariant } from './binary-bodies';
import { contentVariant, jsonBody, type BodySpec } from './body-variants';
import { exampleArbitrary } from './example-arbitrary';
import { HEADER_VARIANTS, HOSTILE_METHODS } from './header-variants';
import { toJsonText } from './json-text';
import { mutationArbitrary } from './mutate';
import { targetSigners } from './op-targets';
import type { BodyContent, Operation } from './openapi';
import { hostilePath, hostileQuery, renderPath, renderQuery, validQuery, validSegments, type PathQueryContext } from './path-query';
import type { AuthKind, Focus, RequestCase } from './request-case';
import { schemaArbitrary } from './schema-arbitrary';
import { signedBodyArbitrary, type SigningContext } from './signed-bodies';

export interface CaseContext extends PathQueryContext, SigningContext {
  /** A real casefile archive (.tar.gz) for the raw verification route, when the run made one. */
  archive: Buffer | null;
  /** Generated dates are placed after this instant. */
  now: number;
}

interface Shape {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  body: BodySpec | null;
  detail: string;
}

const NO_BODY: BodySpec = { body: null, contentType: null, headers: [], label: 'no body' };

function contentsOf(op: Operation) {
  const list = op.body?.contents ?? [];
  return {
    json: list.find((c) => c.mediaType === 'application/json') ?? null,
    multipart: list.find((c) => c.mediaType.startsWith('multipart/')) ?? null,
    binary: list.find((c) => /gzip|octet-stream/.test(c.mediaType)) ?? null,
  };
}

/** Schema-generated values (breadth), the document's example with real ids, or an SDK-signed body (depth). */
function validJson(op: Operation, content: BodyContent, ctx: CaseContext, signerId: string): fc.Arbitrary<unknown> {
  const choices: Array<fc.WeightedArbitrary<unknown>> = [{ arbitrary: schemaArbitrary(content.schema, ctx), weight: 2 }];
  if (content.example !== undefined) choices.push({ arbitrary: exampleArbitrary(content.example, content.schema, { pools: ctx.pools, signerId, now: ctx.now }), weight: 3 });
  const signed = signedBodyArbitrary(op, ctx, signerId);
  if (signed) choices.push({ arbitrary: signed, weight: 4 });
  return choices.length === 1 ? choices[0].arbitrary : fc.oneof(...choices);
}

/** Form fields for a multipart upload: the JSON body's scalar fields, without the inline content. */
function formFields(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'content_base64' || typeof v === 'object') continue;
    out[k] = String(v);
  }
  return out;
}

/** A valid body for the operation (JSON, multipart or archive), or none. */
function validBody(op: Operation, ctx: CaseContext, signerId: string): fc.Arbitrary<BodySpec> {
  const { json, multipart, binary } = contentsOf(op);
  const options: Array<fc.Arbitrary<BodySpec>> = [];
  if (json) options.push(validJson(op, json, ctx, signerId).map((v) => jsonBody(toJsonText(v))));
  if (multipart && json) options.push(fc.tuple(validJson(op, json, ctx, signerId), fc.nat(), fc.uuid()).map(([v, pick, nonce]) => multipartVariant(formFields(v), pick, true, nonce)));
  if (binary) options.push(fc.uint8Array({ maxLength: 2048 }).map(() => archiveVariant(ctx.archive, 0, Buffer.alloc(0))));
  return options.length === 0 ? fc.constant(NO_BODY) : fc.oneof(...options);
}

/** The body broken from the inside (schema-guided) or, for byte bodies, a hostile form of it. */
function hostileBody(op: Operation, ctx: CaseContext, signerId: string): fc.Arbitrary<BodySpec> {
  const { json, multipart, binary } = contentsOf(op);
  const options: Array<fc.Arbitrary<BodySpec>> = [];
  if (json) options.push(mutationArbitrary(json.schema, validJson(op, json, ctx, signerId)).map((m) => jsonBody(toJsonText(m.value), `body ${m.label}`)));
  if (multipart && json) options.push(fc.tuple(validJson(op, json, ctx, signerId), fc.nat(), fc.uuid()).map(([v, pick, nonce]) => multipartVariant(formFields(v), pick, false, nonce)));
  if (binary) {
    options.push(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4096 })).map(([pick, bytes]) => archiveVariant(ctx.archive, pick, Buffer.from(bytes))));
  }
  return options.length === 0 ? fc.constant(NO_BODY) : fc.oneof(...options);
}

function focusArbitrary(op: Operation): fc.Arbitrary<Focus> {
  const hasBody = op.body !== null;
  const weights: Array<[Focus, number]> = [
    ['valid', 20],
    ['body', hasBody ? 35 : 0],
    ['content', hasBody ? 12 : 3],
    ['path', op.pathParams.length > 0 ? 15 : 4],
    ['query', op.queryParams.length > 0 ? 12 : 3],
    ['header', 6],
    ['method', 2],
  ];
  return fc.oneof(...weights.filter(([, w]) => w > 0).map(([focus, weight]) => ({ arbitrary: fc.constant(focus), weight })));
}

/**
 * Operations only the agent itself may call, signing: the operator is refused even acting for it
 * (a mandate's autonomy by its signer; feedback and a new case by the purchase's buyer).
 */
export const SIGNER_ONLY: ReadonlySet<string> = new Set(['PUT /v1/mandates/{mandate_id}/autonomy', 'POST /v1/commerce/feedback/record', 'POST /v1/post-purchase/cases']);

/**
 * First choice of credentials; the runner falls back to the operator when its budget is spent.
 * Failed authentications are scarce (30/min per IP): uploads, where a refused request must leave
 * nothing behind, get most of them.
 */
function authArbitrary(op: Operation): fc.Arbitrary<AuthKind[]> {
  const upload = op.key === 'POST /v1/artifacts';
  const signerOnly = SIGNER_ONLY.has(op.key);
  return fc
    .oneof(
      { arbitrary: fc.constant<AuthKind>('operator'), weight: upload ? 20 : signerOnly ? 15 : 40 },
      { arbitrary: fc.constant<AuthKind>('agent'), weight: upload ? 20 : signerOnly ? 60 : 35 },
      { arbitrary: fc.constant<AuthKind>('none'), weight: upload ? 20 : 15 },
      { arbitrary: fc.constant<AuthKind>('forged'), weight: upload ? 40 : 10 },
    )
    .map((first) => (first === 'operator' ? ['operator'] : [first, 'operator']));
}

function shapeFor(op: Operation, ctx: CaseContext, focus: Focus, signerId: string): fc.Arbitrary<Shape> {
  const valid = fc.record({ segments: validSegments(op, ctx, signerId), query: validQuery(op, ctx, signerId), body: validBody(op, ctx, signerId), pick: fc.nat({ max: 1_000_000 }) });
  const target = (v: { segments: Record<string, string>; query: Array<[string, string]> }) => renderPath(op.path, v.segments) + renderQuery(v.query);
  const base = { method: op.method, headers: [] as Array<[string, string]> };
  switch (focus) {
    case 'valid':
      return valid.map((v) => ({ ...base, target: target(v), body: v.body, detail: v.body.body ? v.body.label : 'valid request' }));
    case 'body':
      return fc.tuple(valid, hostileBody(op, ctx, signerId)).map(([v, body]) => ({ ...base, target: target(v), body, detail: body.label }));
    case 'content':
      return valid.map((v) => {
        const text = v.body.body && v.body.contentType === 'application/json' ? v.body.body.toString() : '{"fuzz":true}';
        const body = contentVariant(text, v.pick);
        return { ...base, target: target(v), body, detail: `body: ${body.label}` };
      });
    case 'path':
      return fc.tuple(hostilePath(op, ctx, signerId), validBody(op, ctx, signerId)).map(([h, body]) => ({ ...base, target: h.target, body, detail: h.label }));
    case 'query':
      return fc.tuple(hostileQuery(op, ctx, signerId), validBody(op, ctx, signerId)).map(([h, body]) => ({ ...base, target: h.target, body, detail: h.label }));
    case 'header':
      return valid.map((v) => {
        const variant = HEADER_VARIANTS[v.pick % HEADER_VARIANTS.length];
        return { ...base, headers: variant.headers, target: target(v), body: v.body, detail: `header: ${variant.label}` };
      });
    case 'method':
      return valid.map((v) => {
        const methods = HOSTILE_METHODS.filter((m) => m !== op.method);
        const method = methods[v.pick % methods.length];
        return { ...base, method, target: target(v), body: v.body, detail: `method ${method}` };
      });
  }
}

/**
 * Routes that answer only to an agent (the session's buyer, the mandate's signer, a task event
 * subscription's owner): the operator mostly acts as the signer there (X-Agent-Id), so its
 * requests reach the rules, not a 403 or a 404.
 */
export const needsActingAgent = (op: Operation) =>
  op.path.startsWith('/v1/mandates') ||
  op.path.startsWith('/v1/commerce/ucp/checkout') ||
  op.path.startsWith('/v1/workflows/tasks/subscriptions/{subscription_id}');

/** Requests for `op`; the same seed gives the same requests for the same real ids. */
export function caseArbitrary(op: Operation, ctx: CaseContext): fc.Arbitrary<RequestCase> {
  const signers = Math.max(1, ctx.signerIds.length);
  // Built once per (focus, signer): building arbitraries costs more than drawing from them.
  const shapes = new Map<string, fc.Arbitrary<Shape>>();
  const shape = (focus: Focus, signerId: string) => {
    const key = `${focus}\u0000${signerId}`;
    let arb = shapes.get(key);
    if (!arb) shapes.set(key, (arb = shapeFor(op, ctx, focus, signerId)));
    return arb;
  };
  // Where only some signers own a target of the operation (the contract's verifier…), mostly one of them.
  const owning = targetSigners(ctx.targets, op.key, ctx.signerIds);
  const anySigner = fc.nat({ max: signers - 1 });
  const signer = owning.length === 0 ? anySigner : fc.oneof({ arbitrary: fc.constantFrom(...owning), weight: 3 }, { arbitrary: anySigner, weight: 1 });
  return fc
    .record({
      signer,
      focus: focusArbitrary(op),
      auth: authArbitrary(op),
      actAs: fc.nat({ max: 9 }).map((n) => n < (needsActingAgent(op) ? 7 : 1)),
      forgery: fc.nat({ max: 1_000_000 }),
    })
    .chain(({ signer, focus, auth, actAs, forgery }) =>
      shape(focus, ctx.signerIds[signer] ?? 'fuzz:agent:none').map(
        (shape): RequestCase => ({
          op,
          method: shape.method,
          target: shape.target,
          headers: [...(shape.body?.headers ?? []), ...shape.headers],
          body: shape.body?.body ?? null,
          contentType: shape.body?.contentType ?? null,
          auth,
          signer,
          actAs,
          forgery,
          focus,
          label: shape.detail,
          uploadRef: shape.body?.uploadRef ?? null,
        }),
      ),
    );
}
