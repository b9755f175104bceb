/**
 * UCP schemas describe a resource once and mark per field whether it belongs in a request
 * (`ucp_request`) or a response (`ucp_response`): `"omit"`, `"required"` or `"optional"`, either for
 * every operation or per operation (`{ "create": "omit", "update": "optional" }`). The REST binding
 * uses the same `checkout.json` for request and response bodies, so a create request (no `id`,
 * `status`, `totals`…) only validates against the view resolved for its operation. This module
 * computes that view, with the rules of upstream's `ucp-schema resolve`:
 * - omit: the property is dropped from `properties` and `required` (objects stay open, so a sent
 *   omitted field is tolerated, as upstream's non-strict default);
 * - required: kept and added to `required`; optional: kept and removed from `required`;
 * - no annotation, or an operation the object form does not name: kept as written.
 * Annotations of the resolved direction are removed; everything else (including `$ref`s, which still
 * point at the other files resolved the same way) is kept.
 */

export type UcpDirection = 'request' | 'response';
/** Operations named in the vendored schemas' per-operation annotations. */
export type UcpOperation = 'create' | 'update' | 'complete' | 'read';

export interface ViewOptions {
  direction: UcpDirection;
  operation: UcpOperation;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Visibility = 'omit' | 'required' | 'optional' | 'include';

const visibilities = new Set(['omit', 'required', 'optional']);

function annotationKey(direction: UcpDirection): string {
  return direction === 'request' ? 'ucp_request' : 'ucp_response';
}

function visibilityOf(prop: Json, options: ViewOptions, at: string): Visibility {
  if (prop === null || typeof prop !== 'object' || Array.isArray(prop)) return 'include';
  const annotation = prop[annotationKey(options.direction)];
  if (annotation === undefined) return 'include';
  const chosen = typeof annotation === 'object' && annotation !== null && !Array.isArray(annotation) ? annotation[options.operation] : annotation;
  if (chosen === undefined) return 'include';
  if (typeof chosen !== 'string' || !visibilities.has(chosen)) {
    throw new Error(`invalid ${annotationKey(options.direction)} annotation at ${at}: ${JSON.stringify(chosen)}`);
  }
  return chosen as Visibility;
}

function resolveProperties(props: { [key: string]: Json }, options: ViewOptions, at: string, required: string[]): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [name, prop] of Object.entries(props)) {
    const visibility = visibilityOf(prop, options, `${at}/${name}`);
    const dropFromRequired = () => required.splice(0, required.length, ...required.filter((r) => r !== name));
    if (visibility === 'omit') {
      dropFromRequired();
      continue;
    }
    out[name] = resolveNode(prop, options, `${at}/${name}`);
    if (visibility === 'required' && !required.includes(name)) required.push(name);
    if (visibility === 'optional') dropFromRequired();
  }
  return out;
}

function resolveNode(node: Json, options: ViewOptions, at: string): Json {
  if (Array.isArray(node)) return node.map((item, i) => resolveNode(item, options, `${at}/${i}`));
  if (node === null || typeof node !== 'object') return node;
  const ownKey = annotationKey(options.direction);
  const hadRequired = Array.isArray(node['required']);
  const required = hadRequired ? (node['required'] as Json[]).filter((r): r is string => typeof r === 'string') : [];
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === ownKey || key === 'required') continue;
    if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = resolveProperties(value, options, `${at}/properties`, required);
    } else {
      out[key] = resolveNode(value, options, `${at}/${key}`);
    }
  }
  if (hadRequired || required.length > 0) out['required'] = required;
  return out;
}

/** The view of one schema document for a direction and operation (the input is not modified). */
export function resolveView<T>(schema: T, options: ViewOptions): T {
  return resolveNode(schema as Json, options, '') as T;
}
