// Endpoints are compared by method and path shape: path parameters match by position, never
// by name, so the spec's `/v1/agents/{agent_id}` equals a route's `/v1/agents/{id}`.

export interface Endpoint {
  method: string;
  path: string;
}

/** `/v1/agents/{agent_id}` and `/v1/agents/:id` both become `/v1/agents/{}`. */
export function pathShape(path: string): string {
  const normalized = path
    .replace(/\{[^}/]*\}/g, '{}')
    .replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '{}')
    .replace(/\/+$/, '');
  return normalized === '' ? '/' : normalized;
}

export function endpointKey(e: Endpoint): string {
  return `${e.method.toUpperCase()} ${pathShape(e.path)}`;
}

export function sameEndpoint(a: Endpoint, b: Endpoint): boolean {
  return endpointKey(a) === endpointKey(b);
}

export function formatEndpoint(e: Endpoint): string {
  return `${e.method.toUpperCase()} ${e.path}`;
}
