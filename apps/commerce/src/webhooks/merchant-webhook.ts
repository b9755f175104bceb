import { verifyWebhook, type KeyInput } from '@exchange/http-signatures';
import { isDomainError } from '@exchange/platform';
import { findSigningKey, parseUcpAgentHeader, type UcpProfile } from '@exchange/ucp';
import type { MerchantPort } from '../domain/merchant.ports';
import { headerMap, type WebhookDelivery } from './order-delivery';
import { webhookReason } from './webhook-reasons';

// A merchant's RFC 9421-signed webhook (UCP order webhooks, ucp-digest §5): the signer is the
// merchant whose profile UCP-Agent names; its key is found by keyid in that profile's
// signing_keys (fetched through the merchant client, so MERCHANT_DIRECTORY and the cache apply);
// then Content-Digest and the ES256 signature over the delivery as received. Never throws.

export interface MerchantWebhookDeps {
  merchants: MerchantPort;
  clock: () => Date;
}

export interface MerchantWebhookCheck {
  valid: boolean;
  reason?: string;
  merchantDomain?: string;
  keyId?: string;
}

export async function verifyMerchantWebhook(deps: MerchantWebhookDeps, delivery: WebhookDelivery): Promise<MerchantWebhookCheck> {
  const headers = headerMap(delivery.headers);
  if (!headers) return { valid: false, reason: 'header_repeated' };
  if (headers['signature-input'] === undefined && headers['signature'] === undefined) return { valid: false, reason: 'signature_missing' };
  const agent = parseUcpAgentHeader(headers['ucp-agent']);
  if (!agent) return { valid: false, reason: 'ucp_agent_missing' };
  const merchantDomain = deps.merchants.merchantDomainOf?.(agent.profile);
  if (merchantDomain === undefined) return { valid: false, reason: 'profile_url_invalid' };

  let profile: UcpProfile;
  try {
    profile = (await deps.merchants.profile(merchantDomain)).profile as unknown as UcpProfile;
  } catch (err) {
    return { valid: false, reason: isDomainError(err) ? err.code : 'profile_unreachable', merchantDomain };
  }
  const result = await verifyWebhook({
    headers,
    bodyBase64: Buffer.from(delivery.body).toString('base64'),
    method: delivery.method,
    url: delivery.url,
    resolveKey: (keyid) => (findSigningKey(profile, keyid) as KeyInput | undefined) ?? null,
    now: deps.clock,
  });
  if (result.valid) return { valid: true, merchantDomain, ...(result.keyid !== undefined ? { keyId: result.keyid } : {}) };
  const keyId = /keyid="([^"]{1,200})"/.exec(headers['signature-input'] ?? '')?.[1];
  return { valid: false, reason: webhookReason(result.reason), merchantDomain, ...(keyId !== undefined ? { keyId } : {}) };
}
