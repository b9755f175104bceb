import { createSigner, httpbis } from 'http-message-signatures';
import { nowSeconds, type Clock } from './body';
import { contentDigest, type DigestAlgorithm } from './content-digest';
import { headerValue, type HeaderMap } from './headers';
import { algorithmOf, toKeyObject, type KeyInput } from './keys';
import { isRequest, ucpComponents, type HttpMessage, type HttpRequest } from './message';

export interface SignOptions {
  /** Private key (ES256: P-256; ed25519) or HMAC secret, as KeyObject or JWK. */
  key: KeyInput;
  keyid: string;
  /** Covered components; default ucpComponents(message) (after Content-Digest is added). */
  components?: string[];
  /** Signature label (default `sig1`); a label already used gets a number appended. */
  label?: string;
  /** Clock for `created` (default the real clock). */
  now?: Clock;
  /** Adds `expires = created + expiresInSec`. */
  expiresInSec?: number;
  /** Adds the `alg` parameter. Off by default: UCP takes the algorithm from the key, never the header. */
  includeAlg?: boolean;
  nonce?: string;
  tag?: string;
  /** Digest added when the message has a body and no Content-Digest (default sha-256, what UCP requires). */
  digestAlgorithm?: DigestAlgorithm;
  /** For a response whose components carry `;req`: the request it answers. */
  request?: HttpRequest;
}

/**
 * Signs a request or response (RFC 9421) and returns its headers plus `Content-Digest` (when there
 * is a body and none yet), `Signature-Input` and `Signature`. The signature base and header
 * serialization are http-message-signatures'; ECDSA signatures are raw r‖s (ieee-p1363).
 */
export async function signHttpMessage(message: HttpMessage, options: SignOptions): Promise<HeaderMap> {
  const key = toKeyObject(options.key, 'sign');
  const alg = algorithmOf(key);
  if (!alg) throw new Error('unsupported signing key: use P-256, P-384, ed25519 or an HMAC secret');
  if (key.type === 'public') throw new Error('a public key cannot sign');

  const headers: HeaderMap = { ...message.headers };
  if (message.body !== undefined && message.body.length > 0 && headerValue(headers, 'content-digest') === undefined) {
    headers['Content-Digest'] = contentDigest(message.body, options.digestAlgorithm);
  }
  const prepared = { ...message, headers };
  const components = options.components ?? ucpComponents(prepared);

  const created = nowSeconds(options.now);
  const params = ['created', 'keyid'];
  const paramValues: Record<string, Date | string> = { created: new Date(created * 1000), keyid: options.keyid };
  if (options.expiresInSec !== undefined) {
    params.push('expires');
    paramValues['expires'] = new Date((created + options.expiresInSec) * 1000);
  }
  if (options.nonce !== undefined) {
    params.push('nonce');
    paramValues['nonce'] = options.nonce;
  }
  if (options.tag !== undefined) {
    params.push('tag');
    paramValues['tag'] = options.tag;
  }
  if (options.includeAlg) {
    params.push('alg');
    paramValues['alg'] = alg;
  }
  const config = { key: createSigner(key, alg, options.keyid), name: options.label ?? 'sig1', fields: components, params, paramValues };
  const signed = isRequest(prepared)
    ? await httpbis.signMessage(config, { method: prepared.method, url: prepared.url, headers })
    : await httpbis.signMessage(config, { status: prepared.status, headers }, options.request && toLibRequest(options.request));
  return signed.headers;
}

export function toLibRequest(request: HttpRequest): { method: string; url: string; headers: HeaderMap } {
  return { method: request.method, url: request.url, headers: request.headers };
}
