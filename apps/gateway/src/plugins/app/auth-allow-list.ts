// The one allow-list of routes reachable without credentials (DESIGN §3) and the start-up check
// that every route's `config.auth` and OpenAPI `security` agree with it (used by auth.ts onRoute).

/**
 * `optional`: without credentials the request is anonymous; with them it is authenticated exactly
 * as `operator_or_agent` (the casefile verifier: an authenticated caller is outside the anonymous
 * budget). `public` and `optional` are only for the routes of PUBLIC_ROUTES.
 */
export type AuthMode = 'public' | 'operator' | 'operator_or_agent' | 'optional';

/**
 * The whole list of routes reachable without credentials (DESIGN §3), as `METHOD url`; HEAD counts
 * as GET. Everything else needs the operator token or an agent signature (missing → 401).
 */
export const PUBLIC_ROUTES: ReadonlyMap<string, 'public' | 'optional'> = new Map([
  ['GET /health', 'public'],
  ['GET /skill.md', 'public'],
  ['GET /quickstart.md', 'public'],
  ['GET /openapi.json', 'public'],
  ['GET /.well-known/ucp', 'public'],
  ['GET /ui/casefile', 'public'],
  ['POST /ui/casefile/verify', 'public'],
  ['POST /v1/casefiles/verify', 'optional'],
  // Merchants deliver order webhooks signed with their own keys (RFC 9421), not the exchange's:
  // commerce verifies the signature against the merchant's profile.
  ['POST /v1/commerce/ucp/webhooks/orders', 'public'],
]);

/** The page and assets of swagger-ui (registered before this plugin; GET/HEAD only). */
const API_REFERENCE = /^\/api-reference(?:\/|$)/;

/** How `method url` may be reached without credentials, or null when it may not. */
export function publicAccess(method: string, url: string | undefined): 'public' | 'optional' | null {
  if (url === undefined) return null;
  const verb = method === 'HEAD' ? 'GET' : method;
  if (verb === 'GET' && API_REFERENCE.test(url)) return 'public';
  return PUBLIC_ROUTES.get(`${verb} ${url}`) ?? null;
}

export type SecurityRequirement = Record<string, unknown>;

/**
 * Why a route's declaration contradicts the allow-list, or null when it agrees: a `public` or
 * `optional` route must be listed with that mode, a listed route must declare it, and the OpenAPI
 * `security` must offer anonymous access (`[]` or a `{}` entry) exactly on listed routes.
 */
export function routeAuthMismatch(method: string, url: string, auth: AuthMode | undefined, security: SecurityRequirement[] | undefined, hidden: boolean): string | null {
  const listed = publicAccess(method, url);
  const declaredOpen = auth === 'public' || auth === 'optional';
  if (declaredOpen && listed !== auth) return `declares auth '${auth}' but PUBLIC_ROUTES ${listed ? `lists it as '${listed}'` : 'does not list it'}`;
  if (!declaredOpen && listed) return `is listed in PUBLIC_ROUTES as '${listed}' but declares auth '${auth ?? 'operator'}'`;
  if (hidden || security === undefined) return listed || hidden ? null : 'has no OpenAPI security (every documented route must say who may call it)';
  const anonymousInDoc = security.length === 0 || security.some((r) => Object.keys(r).length === 0);
  if (anonymousInDoc !== (listed !== null)) return listed ? 'is public but its OpenAPI security requires credentials' : 'requires credentials but its OpenAPI security allows anonymous calls';
  return null;
}
