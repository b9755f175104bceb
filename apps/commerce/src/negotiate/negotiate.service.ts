import type { UcpProfile } from '@exchange/ucp';
import type { CommerceRuntime } from '../service/runtime';
import { negotiateWithMerchant, type NegotiationView } from './negotiation';

export type NegotiateDeps = Pick<CommerceRuntime, 'merchants' | 'platform'>;

export interface MerchantNegotiation extends NegotiationView {
  merchantDomain: string;
  endpoint: string;
}

/** POST …/negotiate: any authenticated agent or operator (the gateway checked who calls). */
export class NegotiateService {
  constructor(private readonly deps: NegotiateDeps) {}

  /** Throws as the profile fetch does (400 invalid_merchant_domain, 422, 424); 400 for an unknown capability. */
  async negotiate(merchantDomain: string, capabilities: readonly string[]): Promise<MerchantNegotiation> {
    const view = await this.deps.merchants.profile(merchantDomain);
    const result = negotiateWithMerchant(this.deps.platform.profile as unknown as UcpProfile, view.profile as unknown as UcpProfile, capabilities);
    return { ...result, merchantDomain: view.merchantDomain, endpoint: view.endpoint };
  }
}
