import type { commerceV1 } from '@exchange/proto';
import { problem } from '../../plugins/app/problem';

// How an order webhook is handed to commerce exactly as it was delivered: its headers as
// received (repeats kept), the URL the merchant signed (RFC 9421 `@authority`, `@path`,
// `@query`), and the HTTP status of a refusal. Pure.

/** Node's `rawHeaders` ([name, value, name, value, …]) → proto headers, names lower-cased. */
export function rawHeaders(raw: readonly string[]): commerceV1.WebhookHeader[] {
  const out: commerceV1.WebhookHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [name, value] = [raw[i], raw[i + 1]];
    if (name !== undefined && value !== undefined) out.push({ name: name.toLowerCase(), value });
  }
  return out;
}

/** A Host header a URL can be built from (name or IP, optional port). */
const HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/;

/**
 * The URL the merchant delivered to: PUBLIC_BASE_URL (behind a proxy the Host and scheme seen here
 * are not the merchant's) + the path and query, else the request's own scheme and Host.
 */
export function deliveredUrl(request: { protocol: string; host: string; url: string }, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl !== undefined) return publicBaseUrl.replace(/\/+$/, '') + request.url;
  if (!HOST.test(request.host)) throw problem(400, 'bad_request', 'the Host header is missing or not a host name');
  return `${request.protocol}://${request.host}${request.url}`;
}

/**
 * Refusals about who signed (no signature, unknown or unusable key, a signature that does not
 * verify, outside its time window, a signer whose profile cannot be read) are 401: the delivery
 * is not authenticated. Anything else commerce refuses is about the message itself (headers,
 * digest, algorithm, body): 400.
 */
const UNAUTHENTICATED = new Set([
  'signature_missing',
  'signature_invalid',
  'key_not_found',
  'key_invalid',
  'timestamp_out_of_window',
  'ucp_agent_missing',
  'profile_url_invalid',
  'profile_unreachable',
]);

export function refusalStatus(reason: string): 400 | 401 {
  return UNAUTHENTICATED.has(reason) ? 401 : 400;
}
