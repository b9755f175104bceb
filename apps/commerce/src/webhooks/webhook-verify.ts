import { verifyWebhook } from '@exchange/http-signatures';
import { errors } from '@exchange/platform';
import { verifyMerchantWebhook, type MerchantWebhookDeps } from './merchant-webhook';
import { headerMap, type WebhookDelivery } from './order-delivery';
import { webhookReason } from './webhook-reasons';

// POST …/webhooks/verify: whatever a caller received, say whether its signature holds. UCP (RFC
// 9421) when Signature-Input/Signature are present, else Standard Webhooks (webhook-signature,
// v1 HMAC with a whsec_ secret, v1a ed25519 with a whpk_ key, ±300 s). A bad or missing signature
// is a result; only request fields no honest caller sends are a 400.

export type WebhookSchemeName = 'ucp_rfc9421' | 'standard_webhooks_v1' | 'standard_webhooks_v1a' | 'none';

export interface WebhookVerifyInput {
  headers: Array<{ name: string; value: string }>;
  body: Uint8Array;
  secret?: string;
  method?: string;
  url?: string;
}

export interface WebhookVerdict {
  valid: boolean;
  scheme: WebhookSchemeName;
  reason?: string;
  keyId?: string;
  merchantDomain?: string;
}

export interface WebhookVerifyDeps extends MerchantWebhookDeps {
  /** Where merchants deliver (the platform profile's webhook_url): the default URL. */
  webhookUrl: string;
}

const MAX_HEADERS = 100;
const MAX_BODY_BYTES = 1024 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,256}$/;

type Problem = { pointer: string; message: string };

function checkInput(input: WebhookVerifyInput): void {
  const problems: Problem[] = [];
  if (input.headers.length > MAX_HEADERS) problems.push({ pointer: '/headers', message: `at most ${MAX_HEADERS} headers` });
  input.headers.slice(0, MAX_HEADERS).forEach((h, i) => {
    if (!TOKEN.test(h.name)) problems.push({ pointer: `/headers/${i}/name`, message: 'not an HTTP field name' });
  });
  if (input.body.byteLength > MAX_BODY_BYTES) problems.push({ pointer: '/body', message: `larger than ${MAX_BODY_BYTES} bytes` });
  if (input.method !== undefined && !/^[A-Z]{1,16}$/.test(input.method)) problems.push({ pointer: '/method', message: 'an upper-case HTTP method' });
  if (input.url !== undefined && !isHttpUrl(input.url)) problems.push({ pointer: '/url', message: 'an absolute http(s) URL of at most 2048 characters' });
  if (input.secret !== undefined && !/^(whsec|whpk)_[A-Za-z0-9+/=]{1,1024}$/.test(input.secret)) {
    problems.push({ pointer: '/secret', message: 'a Standard Webhooks secret (whsec_…) or public key (whpk_…)' });
  }
  if (problems.length > 0) throw errors.invalidArgument('validation_failed', 'the webhook to verify is malformed', { errors: problems.slice(0, 20) });
}

function isHttpUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** v1a when only ed25519 signatures are offered or the key is a whpk_ one; else v1. */
function standardScheme(signatureHeader: string, secret: string | undefined): WebhookSchemeName {
  const versions = signatureHeader.split(' ').filter(Boolean).map((s) => s.split(',')[0]);
  const onlyV1a = versions.length > 0 && versions.every((v) => v === 'v1a');
  return onlyV1a || secret?.startsWith('whpk_') ? 'standard_webhooks_v1a' : 'standard_webhooks_v1';
}

export async function verifyAnyWebhook(deps: WebhookVerifyDeps, input: WebhookVerifyInput): Promise<WebhookVerdict> {
  checkInput(input);
  const names = new Set(input.headers.map((h) => h.name.toLowerCase()));
  if (names.has('signature-input') || names.has('signature')) {
    const delivery: WebhookDelivery = { headers: input.headers, body: input.body, method: input.method ?? 'POST', url: input.url ?? deps.webhookUrl };
    return { scheme: 'ucp_rfc9421', ...(await verifyMerchantWebhook(deps, delivery)) };
  }
  if (!names.has('webhook-signature')) return { valid: false, scheme: 'none', reason: 'signature_missing' };

  const headers = headerMap(input.headers);
  const scheme = standardScheme(headers?.['webhook-signature'] ?? '', input.secret);
  if (!headers) return { valid: false, scheme, reason: 'header_repeated' };
  if (input.secret === undefined) return { valid: false, scheme, reason: 'secret_required' };
  const result = await verifyWebhook({
    headers,
    bodyBase64: Buffer.from(input.body).toString('base64'),
    standardWebhookKeys: [input.secret],
    now: deps.clock,
  });
  if (result.valid) return { valid: true, scheme: result.version === 'v1a' ? 'standard_webhooks_v1a' : 'standard_webhooks_v1' };
  return { valid: false, scheme, reason: webhookReason(result.reason) };
}
