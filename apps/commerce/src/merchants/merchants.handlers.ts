import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import { toMerchantProfileResponse, toPlatformProfileResponse } from './merchants.mapper';
import { MerchantsService } from './merchants.service';

export function merchantsHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'getPlatformProfile' | 'getMerchantProfile'> {
  const s = new MerchantsService({ merchants: r.merchants, platform: r.platform });
  return {
    getPlatformProfile: unary(logger, 'GetPlatformProfile', async () => toPlatformProfileResponse(s.platformProfile())),
    getMerchantProfile: unary(logger, 'GetMerchantProfile', async (req: commerceV1.GetMerchantProfileRequest) =>
      toMerchantProfileResponse(await s.merchantProfile(req.merchantDomain, req.refresh)),
    ),
  };
}
