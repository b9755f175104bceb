import { status } from '@grpc/grpc-js';
import { DomainError, unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import { fromVerifyWebhookRequest, toVerifyWebhookResponse } from './webhooks.mapper';
import { WebhooksService } from './webhooks.service';

// PLACEHOLDER for ReceiveOrderWebhook (the lead's): UNIMPLEMENTED not_implemented.
const todo = (): Promise<never> => Promise.reject(new DomainError(status.UNIMPLEMENTED, 'not_implemented', 'not implemented yet'));

export function webhooksHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'verifyWebhook' | 'receiveOrderWebhook'> {
  const s = new WebhooksService({ merchants: r.merchants, platform: r.platform, clock: r.clock });
  return {
    verifyWebhook: unary(logger, 'VerifyWebhook', async (req: commerceV1.VerifyWebhookRequest) => toVerifyWebhookResponse(await s.verify(fromVerifyWebhookRequest(req)))),
    receiveOrderWebhook: unary(logger, 'receiveOrderWebhook', todo),
  };
}
