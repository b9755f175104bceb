import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import { verifyMerchantWebhook } from './merchant-webhook';
import { OrderWebhookService } from './order-webhooks.service';
import { fromVerifyWebhookRequest, toVerifyWebhookResponse } from './webhooks.mapper';
import { WebhooksService } from './webhooks.service';

export function webhooksHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'verifyWebhook' | 'receiveOrderWebhook'> {
  const s = new WebhooksService({ merchants: r.merchants, platform: r.platform, clock: r.clock });
  const orders = new OrderWebhookService({
    pool: r.pool,
    clock: r.clock,
    notify: r.notify,
    logger: r.logger,
    verify: (delivery) => verifyMerchantWebhook({ merchants: r.merchants, clock: r.clock }, delivery),
    validator: r.ucp,
  });
  return {
    verifyWebhook: unary(logger, 'VerifyWebhook', async (req: commerceV1.VerifyWebhookRequest) => toVerifyWebhookResponse(await s.verify(fromVerifyWebhookRequest(req)))),
    receiveOrderWebhook: unary(logger, 'ReceiveOrderWebhook', async (req: commerceV1.ReceiveOrderWebhookRequest) => {
      const res = await orders.receive({ headers: req.headers, body: req.body, method: req.method, url: req.url });
      return { accepted: res.accepted, commerceSessionId: res.commerceSessionId, reason: res.reason, duplicate: res.duplicate };
    }),
  };
}
