import type { UcpValidator } from '@exchange/ucp';

/** A webhook as delivered: every header, the raw body bytes, and where it was sent. */
export interface WebhookDelivery {
  headers: Array<{ name: string; value: string }>;
  body: Uint8Array;
  method: string;
  url: string;
}

export interface OrderEntity {
  id: string;
  checkout_id: string;
  [key: string]: unknown;
}

export type OrderDeliveryRead =
  | { ok: true; webhookId: string; order: OrderEntity; headers: Record<string, string> }
  | { ok: false; reason: string };

/** Standard Webhooks ids: no dot (it separates the signed parts), printable, bounded. */
const WEBHOOK_ID = /^[A-Za-z0-9_\-:]{1,128}$/;

/** Headers by lower-case name; a repeated header is refused (ambiguous for a signature). */
export function headerMap(headers: WebhookDelivery['headers']): Record<string, string> | null {
  const map: Record<string, string> = {};
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    if (Object.prototype.hasOwnProperty.call(map, key)) return null;
    map[key] = value;
  }
  return map;
}

/** The Webhook-Id and the order entity of a verified delivery (UCP order schema). */
export function readOrderDelivery(delivery: WebhookDelivery, validator: UcpValidator): OrderDeliveryRead {
  const headers = headerMap(delivery.headers);
  if (!headers) return { ok: false, reason: 'header_repeated' };
  const webhookId = headers['webhook-id'];
  if (!webhookId || !WEBHOOK_ID.test(webhookId)) return { ok: false, reason: 'webhook_id_missing' };
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(delivery.body).toString('utf8'));
  } catch {
    return { ok: false, reason: 'body_not_json' };
  }
  const result = validator.validate('order', body);
  if (!result.valid) return { ok: false, reason: 'order_schema_invalid' };
  return { ok: true, webhookId, order: body as OrderEntity, headers };
}
