import type { Logger } from '@exchange/platform';
import { createUcpValidator } from '@exchange/ucp';
import { buildApp } from './app';
import { loadCatalog } from './catalog/catalog.repo';
import { registerCheckoutHandlers } from './checkout/checkout.handlers';
import { CheckoutService } from './checkout/checkout.service';
import { CheckoutStore } from './checkout/checkout.store';
import type { SandboxMerchantConfig } from './config';
import { IdempotencyStore } from './idempotency/idempotency';
import { orderEntity } from './orders/order';
import { OrderWebhookSender } from './orders/webhook.client';
import { businessProfile } from './profile/profile';
import { loadSigningKey, type SigningKey } from './profile/signing-key';

export type { SandboxMerchantConfig } from './config';
export { readSandboxMerchantConfig, SandboxMerchantConfigSchema } from './config';

export interface SandboxMerchantDeps {
  logger: Logger;
  /** Epoch milliseconds (tests move time: expiry, expired discount codes, idempotency TTL). */
  clock?: () => number;
  /** Outbound HTTP for webhooks (tests count attempts). */
  fetch?: typeof fetch;
}

export interface RunningSandboxMerchant {
  /** Base URL = the UCP REST endpoint (PUBLIC_URL, else http://127.0.0.1:<port>). */
  url: string;
  port: number;
  profileUrl: string;
  signingKey: SigningKey;
  stop(): Promise<void>;
}

/** Starts the built-in UCP business (state in memory) and listens on HOST:PORT. */
export async function startSandboxMerchant(config: SandboxMerchantConfig, deps: SandboxMerchantDeps): Promise<RunningSandboxMerchant> {
  const now = deps.clock ?? Date.now;
  const key = loadSigningKey({ key: config.MERCHANT_SIGNING_KEY, kid: config.MERCHANT_KEY_ID, allowGenerated: config.EXCHANGE_ENV === 'sandbox' });
  const catalog = loadCatalog(config.CATALOG_DIR);
  let baseUrl = config.PUBLIC_URL?.replace(/\/+$/, '') ?? '';
  const profileUrl = () => `${baseUrl}/.well-known/ucp`;
  const timers = new Set<NodeJS.Timeout>();
  let webhooks: OrderWebhookSender | undefined;

  const service = new CheckoutService({
    catalog,
    store: new CheckoutStore(),
    now,
    currency: config.CURRENCY,
    ttlMs: config.CHECKOUT_TTL_MS,
    escalationThreshold: config.ESCALATION_THRESHOLD,
    pendingPaymentMs: config.PENDING_PAYMENT_MS,
    baseUrl: () => baseUrl,
    onCompleted: (session, pricing) => {
      deps.logger.info({ checkoutId: session.id, orderId: session.order?.id }, 'checkout completed');
      void webhooks?.send(orderEntity(session, pricing, now()), now());
    },
    schedule: (fn, ms) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
    },
  });

  const app = buildApp({
    profile: () => businessProfile(baseUrl, key),
    bodyLimit: config.BODY_LIMIT_BYTES,
    logError: (err) => deps.logger.error({ err }, 'sandbox merchant request failed'),
  });
  registerCheckoutHandlers(app, { service, idempotency: new IdempotencyStore(now), ucp: createUcpValidator(), baseUrl: () => baseUrl });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  if (!baseUrl) baseUrl = `http://127.0.0.1:${port}`;
  if (config.WEBHOOK_URL) {
    webhooks = new OrderWebhookSender({
      url: config.WEBHOOK_URL,
      key,
      profileUrl: profileUrl(),
      fetch: deps.fetch ?? fetch,
      now,
      maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      baseDelayMs: config.WEBHOOK_RETRY_BASE_MS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      logger: deps.logger,
    });
  }

  return {
    url: baseUrl,
    port,
    profileUrl: profileUrl(),
    signingKey: key,
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await webhooks?.stop();
      await app.close();
    },
  };
}
