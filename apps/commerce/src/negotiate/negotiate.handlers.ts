import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import { toNegotiateResponse } from './negotiate.mapper';
import { NegotiateService } from './negotiate.service';

export function negotiateHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'negotiate'> {
  const s = new NegotiateService({ merchants: r.merchants, platform: r.platform });
  return {
    negotiate: unary(logger, 'Negotiate', async (req: commerceV1.NegotiateRequest) => toNegotiateResponse(await s.negotiate(req.merchantDomain, req.capabilities))),
  };
}
