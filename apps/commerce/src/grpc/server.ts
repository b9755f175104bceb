import type { Server } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
import { mergeAreaHandlers, serviceArea } from '@exchange/service-host';
import { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import { merchantsHandlers } from '../merchants/merchants.handlers';
import { negotiateHandlers } from '../negotiate/negotiate.handlers';
import { webhooksHandlers } from '../webhooks/webhooks.handlers';
import { mandatesHandlers } from '../mandates/mandates.handlers';
import { checkoutHandlers } from '../checkout/checkout.handlers';
import { evidenceHandlers } from '../evidence/evidence.handlers';
import { intentsHandlers } from '../intents/intents.handlers';
import { feedbackHandlers } from '../feedback/feedback.handlers';
import { transparencyHandlers } from '../transparency/transparency.handlers';
import { casesHandlers } from '../cases/cases.handlers';

export const COMMERCE_SERVICE_NAME = 'exchange.commerce.v1.CommerceService';

// Every area of commerce, one entry each; their handlers together make CommerceService. Each
// area's handlers build that area's service from the runtime (taking only what it uses). Adding an
// area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  serviceArea('merchants', (r: CommerceRuntime, logger: Logger) => merchantsHandlers(r, logger)),
  serviceArea('negotiate', (r: CommerceRuntime, logger: Logger) => negotiateHandlers(r, logger)),
  serviceArea('webhooks', (r: CommerceRuntime, logger: Logger) => webhooksHandlers(r, logger)),
  serviceArea('mandates', (r: CommerceRuntime, logger: Logger) => mandatesHandlers(r, logger)),
  serviceArea('checkout', (r: CommerceRuntime, logger: Logger) => checkoutHandlers(r, logger)),
  serviceArea('evidence', (r: CommerceRuntime, logger: Logger) => evidenceHandlers(r, logger)),
  serviceArea('intents', (r: CommerceRuntime, logger: Logger) => intentsHandlers(r, logger)),
  serviceArea('feedback', (r: CommerceRuntime, logger: Logger) => feedbackHandlers(r, logger)),
  serviceArea('transparency', (r: CommerceRuntime, logger: Logger) => transparencyHandlers(r, logger)),
  serviceArea('cases', (r: CommerceRuntime, logger: Logger) => casesHandlers(r, logger)),
] as const;

/** CommerceService's handlers: every area's, merged. */
export function commerceHandlers(r: CommerceRuntime, logger: Logger): commerceV1.CommerceServiceServer {
  // Typed as the generated server: an RPC no area handles does not compile.
  return mergeAreaHandlers(AREAS, r, logger);
}

/** Adds CommerceService to the server libs/service-host starts (health is already there). */
export function registerCommerce(server: Server, r: CommerceRuntime, logger: Logger): void {
  server.addService(commerceV1.CommerceServiceService, commerceHandlers(r, logger));
}
