import type { BodyInput } from './body';
import { headerValue, type HeaderMap } from './headers';

/** An HTTP request as signed: absolute URL (scheme and authority feed `@authority`, `@path`, …). */
export interface HttpRequest {
  method: string;
  url: string;
  headers: HeaderMap;
  /** The raw body; given, it is bound through Content-Digest. */
  body?: BodyInput;
}

export interface HttpResponse {
  status: number;
  headers: HeaderMap;
  body?: BodyInput;
}

export type HttpMessage = HttpRequest | HttpResponse;

export function isRequest(message: HttpMessage): message is HttpRequest {
  return 'method' in message;
}

function hasBody(message: HttpMessage): boolean {
  return message.body !== undefined && message.body.length > 0;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * The components UCP asks a signer to cover (ucp-digest §5): requests `@method @authority @path`,
 * `@query` if there is one, `ucp-agent` if present, `idempotency-key` on POST/PUT/DELETE/PATCH when
 * present, `content-digest content-type` with a body; responses `@status` plus the body pair.
 * `content-type` is covered only when the header exists (a signer cannot cover a missing field).
 */
export function ucpComponents(message: HttpMessage): string[] {
  const components: string[] = [];
  if (isRequest(message)) {
    components.push('@method', '@authority', '@path');
    if (new URL(message.url).search) components.push('@query');
    if (headerValue(message.headers, 'ucp-agent') !== undefined) components.push('ucp-agent');
    if (BODY_METHODS.has(message.method.toUpperCase()) && headerValue(message.headers, 'idempotency-key') !== undefined) {
      components.push('idempotency-key');
    }
  } else {
    components.push('@status');
  }
  if (hasBody(message)) {
    components.push('content-digest');
    if (headerValue(message.headers, 'content-type') !== undefined) components.push('content-type');
  }
  return components;
}
