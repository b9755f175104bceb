import type { commerceV1 } from '@exchange/proto';
import type { WebhookVerdict, WebhookVerifyInput } from './webhook-verify';

export function fromVerifyWebhookRequest(req: commerceV1.VerifyWebhookRequest): WebhookVerifyInput {
  return {
    headers: req.headers.map((h) => ({ name: h.name, value: h.value })),
    body: req.body,
    ...(req.secret !== undefined ? { secret: req.secret } : {}),
    ...(req.method !== undefined ? { method: req.method } : {}),
    ...(req.url !== undefined ? { url: req.url } : {}),
  };
}

export function toVerifyWebhookResponse(v: WebhookVerdict): commerceV1.VerifyWebhookResponse {
  return {
    valid: v.valid,
    scheme: v.scheme,
    ...(v.reason !== undefined ? { reason: v.reason } : {}),
    ...(v.keyId !== undefined ? { keyId: v.keyId } : {}),
    ...(v.merchantDomain !== undefined ? { merchantDomain: v.merchantDomain } : {}),
  };
}
