import type { MerchantProfileView } from '../domain/merchant.ports';
import type { UcpProfileJson } from '../domain/ucp-types';
import type { CommerceRuntime } from '../service/runtime';

export type MerchantsDeps = Pick<CommerceRuntime, 'merchants' | 'platform'>;

/**
 * UCP discovery: the exchange's own platform profile and merchants' business profiles (fetched,
 * validated and cached by the merchant client). Any authenticated caller may read them: the
 * gateway has already authenticated the agent or operator, and profiles are public documents.
 */
export class MerchantsService {
  constructor(private readonly deps: MerchantsDeps) {}

  platformProfile(): UcpProfileJson {
    return this.deps.platform.profile;
  }

  /** Throws 400 invalid_merchant_domain, 424 profile_unreachable or 422 profile_malformed. */
  merchantProfile(merchantDomain: string, refresh: boolean): Promise<MerchantProfileView> {
    return this.deps.merchants.profile(merchantDomain, { refresh });
  }
}
