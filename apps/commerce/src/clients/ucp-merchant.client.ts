import type { Logger } from '@exchange/platform';
import type { MerchantCall, MerchantCallInput, MerchantPort, MerchantProfileView, UcpOperation } from '../domain/merchant.ports';
import type { PlatformIdentity } from '../merchants/platform-identity.model';

export interface UcpMerchantClientOptions {
  platform: PlatformIdentity;
  /** MERCHANT_DIRECTORY parsed: domain → base URL (the only way plain http is allowed). */
  directory: ReadonlyMap<string, string>;
  profileTtlMs: number;
  timeoutMs: number;
  clock: () => Date;
  logger: Logger;
  fetch?: typeof fetch;
}

/** PLACEHOLDER until the merchants area lands: MERCHANT_DIRECTORY JSON → map (throws on a bad value). */
export function parseMerchantDirectory(_json: string): ReadonlyMap<string, string> {
  return new Map();
}

/** PLACEHOLDER until the merchants area lands. */
export class UcpMerchantClient implements MerchantPort {
  constructor(readonly opts: UcpMerchantClientOptions) {}

  profile(_merchantDomain: string): Promise<MerchantProfileView> {
    return Promise.reject(new Error('not implemented yet'));
  }

  call(_merchantDomain: string, _operation: UcpOperation, _input: MerchantCallInput): Promise<MerchantCall> {
    return Promise.reject(new Error('not implemented yet'));
  }
}
