import type { commerceV1 } from '@exchange/proto';
import type { MerchantNegotiation } from './negotiate.service';

export function toNegotiateResponse(n: MerchantNegotiation): commerceV1.NegotiateResponse {
  return {
    merchantDomain: n.merchantDomain,
    status: n.status,
    version: n.version,
    capabilities: n.capabilities.map((c) => ({ name: c.name, version: c.version, extends: c.extends })),
    paymentHandlersJson: JSON.stringify(n.paymentHandlers),
    messagesJson: JSON.stringify(n.messages),
    endpoint: n.endpoint,
  };
}
