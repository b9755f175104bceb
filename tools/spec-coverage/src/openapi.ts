import type { Endpoint } from './path-template';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every (method, path) an OpenAPI 3 document declares; HEAD/OPTIONS are not endpoints of the spec. */
export function openApiEndpoints(doc: unknown): Endpoint[] {
  const paths = (doc as { paths?: unknown } | null)?.paths;
  if (!paths || typeof paths !== 'object') throw new Error('not an OpenAPI document: no "paths" object');
  const endpoints: Endpoint[] = [];
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    for (const method of METHODS) {
      if (item && typeof item === 'object' && method in item) endpoints.push({ method: method.toUpperCase(), path });
    }
  }
  return endpoints;
}
