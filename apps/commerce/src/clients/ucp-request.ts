import { randomUUID } from 'node:crypto';
import { errors } from '@exchange/platform';
import { signHttpMessage } from '@exchange/http-signatures';
import { buildUcpAgentHeader, type CheckoutMessage, type UcpValidator } from '@exchange/ucp';
import type { MerchantCallInput, UcpOperation } from '../domain/merchant.ports';
import type { PlatformIdentity } from '../merchants/platform-identity.model';

// One UCP REST request (ucp-digest §3, §5): method and path per operation, the body validated
// against the operation's request view before anything is sent, and the headers UCP requires,
// signed with RFC 9421 (ES256, the platform key) over the components UCP lists.

interface Route {
  method: 'GET' | 'POST' | 'PUT';
  path: (id: string) => string;
  /** The request view the body is checked against; absent: no body, or a fixed one. */
  view?: CheckoutMessage;
  /** Cancel sends `{}` (the UCP docs; the OpenAPI has no body). */
  fixedBody?: Record<string, unknown>;
  idempotent: boolean;
}

const session = (id: string) => `/checkout-sessions/${encodeURIComponent(id)}`;

export const ROUTES: Readonly<Record<UcpOperation, Route>> = {
  create_checkout: { method: 'POST', path: () => '/checkout-sessions', view: 'create_request', idempotent: true },
  get_checkout: { method: 'GET', path: session, idempotent: false },
  update_checkout: { method: 'PUT', path: session, view: 'update_request', idempotent: true },
  complete_checkout: { method: 'POST', path: (id) => `${session(id)}/complete`, view: 'complete_request', idempotent: true },
  cancel_checkout: { method: 'POST', path: (id) => `${session(id)}/cancel`, fixedBody: {}, idempotent: true },
};

export interface PreparedRequest {
  method: string;
  url: string;
  /** Lower-case names; sent as they are and kept as evidence (signature included). */
  headers: Record<string, string>;
  /** The exact bytes sent (Content-Digest is over them). */
  body?: string;
  parsedBody?: Record<string, unknown>;
  /** 'valid' when a body was checked against its request view, else 'not_applicable'. */
  schemaResult: 'valid' | 'not_applicable';
}

export interface PrepareDeps {
  platform: PlatformIdentity;
  validator: UcpValidator;
  clock: () => Date;
}

/** Builds and signs the request. Throws 400 ucp_payload_invalid when the body is outside the UCP request view. */
export async function prepareRequest(
  endpoint: string,
  operation: UcpOperation,
  input: MerchantCallInput,
  capabilities: readonly string[],
  deps: PrepareDeps,
): Promise<PreparedRequest> {
  const route = ROUTES[operation];
  if (operation !== 'create_checkout' && !input.checkoutId) throw new Error(`${operation} needs the merchant's checkout id`);
  if (route.idempotent && !input.idempotencyKey) throw new Error(`${operation} needs an Idempotency-Key`);
  const parsedBody = route.fixedBody ?? (route.view ? (input.body ?? {}) : undefined);
  if (route.view) {
    const result = deps.validator.validateCheckout(route.view, parsedBody, capabilities);
    if (!result.valid) {
      throw errors.invalidArgument('ucp_payload_invalid', `the ${operation} request does not validate against the UCP 2026-04-08 ${route.view} view`, {
        errors: result.errors.slice(0, 20),
      });
    }
  }
  const body = parsedBody === undefined ? undefined : JSON.stringify(parsedBody);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'ucp-agent': buildUcpAgentHeader(deps.platform.profileUrl),
    'request-id': randomUUID(),
  };
  if (input.idempotencyKey && route.idempotent) headers['idempotency-key'] = input.idempotencyKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const url = `${endpoint}${route.path(input.checkoutId ?? '')}`;
  // Default components = UCP's (http-signatures ucpComponents): @method @authority @path [@query]
  // ucp-agent, idempotency-key on POST/PUT, content-digest content-type with a body.
  const signed = await signHttpMessage(
    { method: route.method, url, headers, body },
    { key: deps.platform.privateKey, keyid: deps.platform.keyId, now: deps.clock },
  );
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed)) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return { method: route.method, url, headers: flat, body, parsedBody, schemaResult: route.view ? 'valid' : 'not_applicable' };
}
