import { DomainError } from '@exchange/platform';
import { status } from '@grpc/grpc-js';
import type { WalletAreasDeps } from '../service/area-wiring';

// PLACEHOLDER (lead): replaced by the billing area's use cases.
export class BillingService {
  constructor(readonly deps: Pick<WalletAreasDeps, 'pool'>) {}

  notYet(): never {
    throw new DomainError(status.UNIMPLEMENTED, 'not_implemented', 'not implemented yet');
  }
}

/** Builds the area's service from the wallet's wiring (src/grpc/server.ts), taking only what it uses. */
export function createBillingService(d: WalletAreasDeps): BillingService {
  return new BillingService({ pool: d.pool });
}
