import type { PromiseClient } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';

/** Commerce's gRPC client as the wallet holds it (mandate budgets of proxy calls: src/proxy/). */
export type CommerceClient = PromiseClient<typeof commerceV1.CommerceServiceService>;
