import type { UcpValidator } from '@exchange/ucp';
import type { CommerceRuntime } from '../service/runtime';
import { storeDelivery } from './order-webhooks.repo';
import type { MerchantWebhookCheck } from './merchant-webhook';
import { readOrderDelivery, type WebhookDelivery } from './order-delivery';

export type OrderWebhookDeps = Pick<CommerceRuntime, 'pool' | 'clock' | 'notify' | 'logger'> & {
  /** RFC 9421 verification against the signer's profile keys (webhooks area). */
  verify: (delivery: WebhookDelivery) => Promise<MerchantWebhookCheck>;
  validator: UcpValidator;
};

export interface ReceiveResult {
  accepted: boolean;
  commerceSessionId?: string;
  reason?: string;
  duplicate: boolean;
}

/**
 * An order webhook a merchant delivered to the platform profile's webhook_url. Accepted only when
 * its RFC 9421 signature verifies with a key of the merchant named by UCP-Agent and its body is a
 * UCP order; then kept once per Webhook-Id as evidence of the session whose checkout it names.
 * Refusals change nothing and say why.
 */
export class OrderWebhookService {
  constructor(private readonly deps: OrderWebhookDeps) {}

  async receive(delivery: WebhookDelivery): Promise<ReceiveResult> {
    const check = await this.deps.verify(delivery);
    if (!check.valid || !check.merchantDomain) return { accepted: false, reason: check.reason ?? 'signature_invalid', duplicate: false };
    const read = readOrderDelivery(delivery, this.deps.validator);
    if (!read.ok) return { accepted: false, reason: read.reason, duplicate: false };
    const stored = await storeDelivery(this.deps.pool, {
      merchantDomain: check.merchantDomain,
      webhookId: read.webhookId,
      orderId: read.order.id,
      checkoutId: read.order.checkout_id,
      evidence: {
        kind: 'order_webhook',
        operation: 'order_webhook',
        content: { method: delivery.method, url: delivery.url, headers: read.headers, body: read.order, key_id: check.keyId ?? null },
        schemaResult: 'valid',
      },
      now: this.deps.clock(),
    });
    if (!stored.duplicate && stored.commerceSessionId) this.deps.notify();
    if (!stored.duplicate && !stored.commerceSessionId) this.deps.logger.info({ merchant: check.merchantDomain, order_id: read.order.id }, 'order webhook for no known session');
    return { accepted: true, commerceSessionId: stored.commerceSessionId ?? undefined, duplicate: stored.duplicate };
  }
}
