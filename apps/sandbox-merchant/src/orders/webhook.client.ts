import { randomUUID } from 'node:crypto';
import { signHttpMessage, type HeaderMap } from '@exchange/http-signatures';
import { buildUcpAgentHeader } from '@exchange/ucp';
import type { SigningKey } from '../profile/signing-key';

// Order webhooks (ucp-digest §5): the full order entity POSTed to WEBHOOK_URL, RFC 9421-signed
// (ES256, Content-Digest, keyid = the profile's kid). Webhook-Id and Webhook-Timestamp (the event
// time) are fixed per event, so every retry is the same delivery; non-2xx answers are retried
// with exponential backoff, a bounded number of times; stop() cancels what is pending.

export interface WebhookLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface WebhookSenderOptions {
  url: string;
  key: SigningKey;
  /** The merchant's profile URL, sent as `UCP-Agent: profile="…"` (names the signer). */
  profileUrl: string;
  fetch: typeof fetch;
  now: () => number;
  maxAttempts: number;
  baseDelayMs: number;
  timeoutMs: number;
  logger: WebhookLogger;
}

export interface DeliveryResult {
  delivered: boolean;
  attempts: number;
  webhookId: string;
}

/** Delay before attempt n+1 (n ≥ 1): base · 2^(n-1), capped at one minute. */
export function backoffMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 60_000);
}

export class OrderWebhookSender {
  private readonly stopping = new AbortController();
  private readonly pending = new Set<Promise<DeliveryResult>>();

  constructor(private readonly options: WebhookSenderOptions) {}

  /** Starts a delivery in the background; the promise never rejects. */
  send(order: Record<string, unknown>, eventTimeMs: number): Promise<DeliveryResult> {
    const delivery = this.deliver(order, eventTimeMs).finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
    return delivery;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all([...this.pending]);
  }

  private async deliver(order: Record<string, unknown>, eventTimeMs: number): Promise<DeliveryResult> {
    const { url, key, maxAttempts, logger } = this.options;
    const webhookId = randomUUID();
    const body = JSON.stringify(order);
    const headers = await signHttpMessage(
      {
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/json',
          'ucp-agent': buildUcpAgentHeader(this.options.profileUrl),
          'webhook-id': webhookId,
          'webhook-timestamp': String(Math.floor(eventTimeMs / 1000)),
        },
        body,
      },
      { key: key.privateKey, keyid: key.kid, now: this.options.now },
    );
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (this.stopping.signal.aborted) break;
      const status = await this.attempt(headers, body);
      if (status !== undefined && status >= 200 && status < 300) {
        logger.info({ webhookId, orderId: order.id, attempt }, 'order webhook delivered');
        return { delivered: true, attempts: attempt, webhookId };
      }
      logger.warn({ webhookId, orderId: order.id, attempt, status }, 'order webhook not accepted');
      if (attempt < maxAttempts) await this.sleep(backoffMs(attempt, this.options.baseDelayMs));
    }
    return { delivered: false, attempts: maxAttempts, webhookId };
  }

  /** The HTTP status, or undefined when the request failed (network, timeout, stop). */
  private async attempt(signed: HeaderMap, body: string): Promise<number | undefined> {
    const headers = Object.fromEntries(Object.entries(signed).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));
    const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.options.timeoutMs)]);
    try {
      const response = await this.options.fetch(this.options.url, { method: 'POST', headers, body, redirect: 'manual', signal });
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    } catch {
      return undefined;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.stopping.signal;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    });
  }
}
