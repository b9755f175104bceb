import { createVerifier, httpbis, MalformedSignatureError } from 'http-message-signatures';
import type { KeyObject } from 'node:crypto';
import { isInnerList, parseDictionary, serializeDictionary, serializeItem, type Dictionary } from 'structured-headers';
import { nowSeconds, type Clock } from './body';
import { verifyContentDigest } from './content-digest';
import { headerValue, withoutHeaders, type HeaderMap } from './headers';
import { ALL_ALGORITHMS, algorithmOf, toKeyObject, type KeyInput, type SignatureAlgorithm } from './keys';
import { isRequest, type HttpMessage, type HttpRequest } from './message';
import { fail, type Failure } from './results';

const MAX_SIGNATURES = 8;

/** The parameters of one signature (RFC 9421 §2.3), as the resolver sees them. */
export interface SignatureParams {
  label: string;
  keyid?: string;
  alg?: string;
  created?: number;
  expires?: number;
  nonce?: string;
  tag?: string;
  /** Covered component identifiers as serialized (`"@method"`, `"content-digest"`, `"@query-param";name="a"`). */
  components: string[];
}

/** keyid → key; null when unknown. Throwing is reported as `key_lookup_failed`, not as a crash. */
export type KeyResolver = (keyid: string, params: SignatureParams) => Promise<KeyInput | null> | KeyInput | null;

export interface VerifyOptions {
  resolveKey: KeyResolver;
  now?: Clock;
  /** Clock skew allowed on created/expires/maxAge, seconds (default 300). */
  skewSec?: number;
  /** Rejects signatures whose `created` is older than this (default: no limit; UCP sets none). */
  maxAgeSec?: number;
  /** Refuse signatures without `created` (default false: UCP makes it optional). */
  requireCreated?: boolean;
  /**
   * Component names that must be covered (bare names: `@method`, `content-digest`). Default: none,
   * plus `content-digest` whenever the message has a body.
   */
  requiredComponents?: string[];
  /** Only this label is considered (default: each signature in turn, the first valid one wins). */
  label?: string;
  /** Accepted algorithms (default all of ALL_ALGORITHMS). */
  algorithms?: readonly SignatureAlgorithm[];
  /** For a response whose components carry `;req`: the request it answers. */
  request?: HttpRequest;
}

export type SignatureVerification =
  | { valid: true; label: string; keyid: string; algorithm: SignatureAlgorithm; created?: number; expires?: number; components: string[] }
  | (Failure & { label?: string; keyid?: string });

/**
 * Verifies the RFC 9421 signature(s) of a request or response, and its Content-Digest when a body
 * is given. Order (ucp-digest §5): parse → keyid → key → time → digest → signature. The signature
 * base and crypto are http-message-signatures'; label choice, time checks (injectable clock),
 * coverage rules, Content-Digest and reasons are ours. Never throws.
 */
export async function verifyHttpMessage(message: HttpMessage, options: VerifyOptions): Promise<SignatureVerification> {
  try {
    const inputHeader = headerValue(message.headers, 'signature-input');
    const signatureHeader = headerValue(message.headers, 'signature');
    if (inputHeader === undefined && signatureHeader === undefined) return fail('missing_signature');
    if (inputHeader === undefined || signatureHeader === undefined) return fail('malformed_signature', 'Signature and Signature-Input must come together');
    let inputs: Dictionary;
    let signatures: Dictionary;
    try {
      inputs = parseDictionary(inputHeader);
      signatures = parseDictionary(signatureHeader);
    } catch {
      return fail('malformed_signature', 'Signature or Signature-Input is not a structured-field dictionary');
    }
    const labels = options.label !== undefined ? [options.label] : [...inputs.keys()];
    if (options.label !== undefined && !inputs.has(options.label)) return fail('missing_signature', `no signature labelled ${options.label}`);
    if (!labels.length) return fail('missing_signature');
    // Each label may cost a key lookup (a profile fetch): a sender has no reason to send many.
    if (labels.length > MAX_SIGNATURES) return fail('malformed_signature', `more than ${MAX_SIGNATURES} signatures`);
    let firstFailure: SignatureVerification | undefined;
    for (const label of labels) {
      const result = await verifyOne(message, label, inputs, signatures, options);
      if (result.valid) return result;
      firstFailure ??= result;
    }
    return firstFailure as SignatureVerification;
  } catch (error) {
    return fail('malformed_signature', error instanceof Error ? error.message.slice(0, 200) : 'unexpected input');
  }
}

async function verifyOne(message: HttpMessage, label: string, inputs: Dictionary, signatures: Dictionary, options: VerifyOptions): Promise<SignatureVerification> {
  const input = inputs.get(label);
  const signature = signatures.get(label);
  if (!input || !isInnerList(input)) return { ...fail('malformed_signature', `Signature-Input ${label} is not an inner list`), label };
  if (!signature || !(signature[0] instanceof ArrayBuffer)) return { ...fail('malformed_signature', `no Signature byte sequence for ${label}`), label };
  const parsed = readParams(label, input);
  if ('reason' in parsed) return { ...parsed, label };
  const params = parsed;
  const keyid = params.keyid;
  if (keyid === undefined) return { ...fail('unknown_key', 'the signature names no keyid'), label };
  const failWith = (f: Failure) => ({ ...f, label, keyid });

  const covered = new Set(input[0].map(([name]) => String(name).toLowerCase()));
  const hasBody = message.body !== undefined && message.body.length > 0;
  const required = [...(options.requiredComponents ?? []), ...(hasBody ? ['content-digest'] : [])];
  const uncovered = required.filter((c) => !covered.has(c.toLowerCase()));
  if (uncovered.length) return failWith(fail('component_not_covered', `not signed: ${uncovered.join(', ')}`));

  let resolved: KeyInput | null;
  try {
    resolved = await options.resolveKey(keyid, params);
  } catch (error) {
    return failWith(fail('key_lookup_failed', error instanceof Error ? error.message.slice(0, 200) : undefined));
  }
  if (!resolved) return failWith(fail('unknown_key', `no key ${keyid.slice(0, 100)}`));
  let key: KeyObject;
  try {
    key = toKeyObject(resolved, 'verify');
  } catch (error) {
    return failWith(fail('invalid_key', error instanceof Error ? error.message.slice(0, 200) : undefined));
  }
  const algorithm = algorithmOf(key);
  const allowed = options.algorithms ?? ALL_ALGORITHMS;
  if (!algorithm || !allowed.includes(algorithm)) return failWith(fail('unsupported_algorithm', `key type not accepted`));
  if (params.alg !== undefined && params.alg !== algorithm) return failWith(fail('unsupported_algorithm', `alg does not fit the key`));

  const time = checkTime(params, options);
  if (time) return failWith(time);

  if (message.body !== undefined) {
    const digestHeader = headerValue(message.headers, 'content-digest');
    if (hasBody || digestHeader !== undefined) {
      const digest = verifyContentDigest(digestHeader, message.body);
      if (!digest.valid) return failWith(digest);
    }
  }

  const checked = await checkSignature(message, label, input, signature, key, algorithm, options.request);
  if (checked) return failWith(checked);
  return { valid: true, label, keyid, algorithm, created: params.created, expires: params.expires, components: params.components };
}

/** The covered component names (bare, lower case) of every signature in the headers; [] if unparsable. */
export function coveredComponentNames(headers: HeaderMap): string[] {
  try {
    const inputs = parseDictionary(headerValue(headers, 'signature-input') ?? '');
    return [...inputs.values()].flatMap((input) => (isInnerList(input) ? input[0].map(([name]) => String(name).toLowerCase()) : []));
  } catch {
    return [];
  }
}

function readParams(label: string, input: [unknown[], Map<string, unknown>]): SignatureParams | Failure {
  const params: SignatureParams = { label, components: [] };
  for (const item of input[0] as [unknown, Map<string, unknown>][]) {
    if (typeof item[0] !== 'string') return fail('malformed_signature', 'a covered component is not a string');
    params.components.push(serializeItem(item as Parameters<typeof serializeItem>[0]));
  }
  for (const [name, value] of input[1]) {
    if (name === 'created' || name === 'expires') {
      if (typeof value !== 'number' || !Number.isInteger(value)) return fail('malformed_signature', `${name} is not an integer`);
      params[name] = value;
    } else if (name === 'keyid' || name === 'alg' || name === 'nonce' || name === 'tag') {
      if (typeof value !== 'string') return fail('malformed_signature', `${name} is not a string`);
      params[name] = value;
    }
  }
  return params;
}

function checkTime(params: SignatureParams, options: VerifyOptions): Failure | null {
  const now = nowSeconds(options.now);
  const skew = options.skewSec ?? 300;
  if (params.created === undefined) return options.requireCreated ? fail('malformed_signature', 'created is required') : null;
  if (params.created > now + skew) return fail('not_yet_valid', 'created is in the future');
  if (params.expires !== undefined && now > params.expires + skew) return fail('expired', 'past expires');
  if (options.maxAgeSec !== undefined && now - params.created > options.maxAgeSec + skew) return fail('expired', 'older than the maximum age');
  return null;
}

// The library verifies every signature in the headers; handing it only `label` makes its answer ours.
async function checkSignature(
  message: HttpMessage,
  label: string,
  input: ReturnType<Dictionary['get']>,
  signature: ReturnType<Dictionary['get']>,
  key: KeyObject,
  algorithm: SignatureAlgorithm,
  request?: HttpRequest,
): Promise<Failure | null> {
  const headers: HeaderMap = {
    ...withoutHeaders(message.headers, ['signature', 'signature-input']),
    'signature-input': serializeDictionary(new Map([[label, input as NonNullable<typeof input>]])),
    signature: serializeDictionary(new Map([[label, signature as NonNullable<typeof signature>]])),
  };
  const verify = createVerifier(key, algorithm);
  const config = {
    keyLookup: async () => ({ id: label, algs: [algorithm], verify: async (data: Buffer, sig: Buffer) => verify(data, sig).catch(() => false) }),
    // Time is checked by checkTime with the injected clock; the library would use Date.now().
    tolerance: Number.MAX_SAFE_INTEGER,
  };
  try {
    const ok = isRequest(message)
      ? await httpbis.verifyMessage(config, { method: message.method, url: message.url, headers })
      : await httpbis.verifyMessage(config, { status: message.status, headers }, request && { method: request.method, url: request.url, headers: request.headers });
    return ok === true ? null : fail('bad_signature');
  } catch (error) {
    const text = error instanceof Error ? error.message : '';
    if (/^No header|not found|^Missing request/.test(text)) return fail('missing_component', text.slice(0, 200));
    if (error instanceof MalformedSignatureError) return fail('malformed_signature', text.slice(0, 200));
    // Sync throws of the crypto layer (a signature of the wrong length, …) mean "does not verify".
    if (/^Cannot |^Unsupported component|^@query-param|^Cannot have both/.test(text)) return fail('malformed_signature', text.slice(0, 200));
    return fail('bad_signature', text.slice(0, 200) || undefined);
  }
}
