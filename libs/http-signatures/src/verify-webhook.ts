import type { Clock } from './body';
import { headerValue, sanitizeHeaders, type HeaderLimits, type HeaderMap } from './headers';
import type { SignatureAlgorithm } from './keys';
import { fail, type Failure } from './results';
import { coveredComponentNames, verifyHttpMessage, type KeyResolver } from './rfc9421-verify';
import { verifyStandardWebhook, type StandardWebhookKey } from './standard-webhooks';

export type WebhookScheme = 'rfc9421' | 'standard-webhooks';

/** The components a UCP order webhook signature must cover (UCP order.md example; ucp-digest §5). */
export const UCP_WEBHOOK_COMPONENTS = ['@method', '@authority', '@path', 'content-digest', 'content-type'];

export interface VerifyWebhookInput {
  /** Header fields as received (untrusted JSON). */
  headers: unknown;
  /** The raw body, base64 (untrusted). */
  bodyBase64: unknown;
  /** The delivery's method and absolute URL (RFC 9421 `@method`, `@authority`, `@path`); method default POST. */
  method?: string;
  url?: string;
  /** RFC 9421: keyid → key (e.g. the merchant profile's `signing_keys`, found through `UCP-Agent`). */
  resolveKey?: (keyid: string, context: { headers: HeaderMap }) => ReturnType<KeyResolver>;
  /** Standard Webhooks: the key(s) of this sender, or a lookup from the headers. */
  standardWebhookKeys?: StandardWebhookKey[] | ((headers: HeaderMap) => Promise<StandardWebhookKey[] | null> | StandardWebhookKey[] | null);
  now?: Clock;
  /** Standard Webhooks timestamp tolerance and RFC 9421 created/expires skew, seconds (default 300). */
  toleranceSec?: number;
  /** RFC 9421 components that must be covered when there is a body (default UCP_WEBHOOK_COMPONENTS). */
  requiredComponents?: string[];
  /** RFC 9421 algorithms accepted (default ES256 and ed25519: public-key schemes only). */
  algorithms?: SignatureAlgorithm[];
  limits?: HeaderLimits & { maxBodyBytes?: number };
}

export type WebhookVerification =
  | { valid: true; scheme: WebhookScheme; keyid?: string; version?: 'v1' | 'v1a'; webhookId?: string }
  | (Failure & { scheme: WebhookScheme | null });

const URL_COMPONENTS = new Set(['@authority', '@path', '@query', '@query-param', '@target-uri', '@scheme', '@request-target']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Verifies an incoming webhook whatever it claims to be: a `Signature-Input`/`Signature` pair means
 * RFC 9421 (UCP; its `Webhook-Id`/`Webhook-Timestamp` are not what is signed), otherwise
 * `webhook-signature` means Standard Webhooks. Never throws: hostile input gets a reason.
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<WebhookVerification> {
  let scheme: WebhookScheme | null = null;
  try {
    const sanitized = sanitizeHeaders(input.headers, input.limits);
    if ('error' in sanitized) return { ...fail('invalid_input', sanitized.error), scheme };
    const headers = sanitized.headers;
    const maxBodyBytes = input.limits?.maxBodyBytes ?? 1024 * 1024;
    if (typeof input.bodyBase64 !== 'string') return { ...fail('invalid_input', 'body_base64 must be a string'), scheme };
    if (input.bodyBase64.length > Math.ceil(maxBodyBytes / 3) * 4) return { ...fail('invalid_input', `body larger than ${maxBodyBytes} bytes`), scheme };
    if (input.bodyBase64.length % 4 === 1 || !BASE64.test(input.bodyBase64)) return { ...fail('invalid_input', 'body_base64 is not base64'), scheme };
    const body = Buffer.from(input.bodyBase64, 'base64');

    if (headerValue(headers, 'signature-input') !== undefined || headerValue(headers, 'signature') !== undefined) {
      scheme = 'rfc9421';
      return { ...(await verifyRfc9421(input, headers, body)), scheme };
    }
    if (headerValue(headers, 'webhook-signature') !== undefined) {
      scheme = 'standard-webhooks';
      const keys = typeof input.standardWebhookKeys === 'function' ? await input.standardWebhookKeys(headers) : input.standardWebhookKeys;
      if (!keys?.length) return { ...fail('unknown_key', 'no Standard Webhooks key for this sender'), scheme };
      const result = verifyStandardWebhook({ headers, body, secretOrPublicKey: keys, now: input.now, toleranceSec: input.toleranceSec });
      return result.valid ? { valid: true, scheme, version: result.version, webhookId: result.webhookId } : { ...result, scheme };
    }
    return { ...fail('missing_signature', 'neither Signature-Input nor webhook-signature'), scheme };
  } catch (error) {
    return { ...fail(scheme ? 'key_lookup_failed' : 'invalid_input', error instanceof Error ? error.message.slice(0, 200) : undefined), scheme };
  }
}

async function verifyRfc9421(input: VerifyWebhookInput, headers: HeaderMap, body: Buffer): Promise<{ valid: true; keyid: string } | Failure> {
  const resolveKey = input.resolveKey;
  if (!resolveKey) return fail('unknown_key', 'no RFC 9421 key resolver configured');
  const method = input.method ?? 'POST';
  let url: string;
  try {
    url = new URL(input.url ?? 'https://webhook.invalid/').toString();
  } catch {
    return fail('invalid_input', 'the delivery URL is not a URL');
  }
  // Without the URL the placeholder would only ever give bad_signature: say what is missing instead.
  if (input.url === undefined && coveredComponentNames(headers).some((c) => URL_COMPONENTS.has(c))) {
    return fail('missing_component', 'the signature covers the delivery URL but none was given');
  }
  const required = body.length > 0 ? (input.requiredComponents ?? UCP_WEBHOOK_COMPONENTS) : (input.requiredComponents ?? []).filter((c) => c !== 'content-digest' && c !== 'content-type');
  const result = await verifyHttpMessage(
    { method, url, headers, body },
    {
      resolveKey: (keyid) => resolveKey(keyid, { headers }),
      now: input.now,
      skewSec: input.toleranceSec,
      requiredComponents: required,
      algorithms: input.algorithms ?? ['ecdsa-p256-sha256', 'ed25519'],
    },
  );
  if (!result.valid) return result.detail === undefined ? fail(result.reason) : fail(result.reason, result.detail);
  return { valid: true, keyid: result.keyid };
}
