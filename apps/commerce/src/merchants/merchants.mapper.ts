import type { commerceV1 } from '@exchange/proto';
import type { MerchantProfileView } from '../domain/merchant.ports';
import type { UcpProfileJson } from '../domain/ucp-types';

// Domain → proto for the merchants area: UCP documents travel as JSON text.

export function toPlatformProfileResponse(profile: UcpProfileJson): commerceV1.GetPlatformProfileResponse {
  return { profileJson: JSON.stringify(profile) };
}

export function toMerchantProfileResponse(view: MerchantProfileView): commerceV1.GetMerchantProfileResponse {
  return {
    merchantDomain: view.merchantDomain,
    profileJson: JSON.stringify(view.profile),
    sourceUrl: view.sourceUrl,
    fetchedAt: view.fetchedAt,
    cacheExpiresAt: view.cacheExpiresAt,
  };
}
