import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import * as map from './transparency.mapper';
import { TransparencyService } from './transparency.service';

type TransparencyRpcs = 'compareShadow' | 'getMonthlyRollup' | 'getSpendSavingsRollup' | 'getSessionTransparency' | 'getPurchaseTimeline';

/** The CommerceService RPCs of transparency: proto in, proto out. */
export function transparencyHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, TransparencyRpcs> {
  const s = new TransparencyService({ pool: r.pool, clock: r.clock });
  return {
    compareShadow: unary(logger, 'CompareShadow', async (req: commerceV1.CompareShadowRequest) =>
      map.toCompareShadowResponse(
        await s.compareShadow(req.actor, { from: req.from, to: req.to, merchantDomain: req.merchantDomain, buyerAgentId: req.buyerAgentId, page: req.page }),
      ),
    ),
    getMonthlyRollup: unary(logger, 'GetMonthlyRollup', async (req: commerceV1.GetMonthlyRollupRequest) =>
      map.toMonthlyRollupResponse(await s.monthly(req.actor, req.window)),
    ),
    getSpendSavingsRollup: unary(logger, 'GetSpendSavingsRollup', async (req: commerceV1.GetSpendSavingsRollupRequest) =>
      map.toSpendSavingsResponse(await s.spendSavings(req.actor, { window: req.window, agentId: req.agentId, currency: req.currency, page: req.page })),
    ),
    getSessionTransparency: unary(logger, 'GetSessionTransparency', async (req: commerceV1.GetSessionTransparencyRequest) =>
      map.toSessionTransparencyResponse(await s.sessionRecord(req.actor, req.commerceSessionId)),
    ),
    getPurchaseTimeline: unary(logger, 'GetPurchaseTimeline', async (req: commerceV1.GetPurchaseTimelineRequest) =>
      map.toPurchaseTimelineResponse(await s.timeline(req.actor, req.dealId)),
    ),
  };
}
