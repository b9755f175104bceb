import type { Server } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
import { mergeAreaHandlers, serviceArea } from '@exchange/service-host';
import { identityV1 } from '@exchange/proto';
import { agentsHandlers } from '../agents/agents.handlers';
import type { AgentService } from '../agents/agents.service';
import { aliasesHandlers } from '../aliases/aliases.handlers';
import type { AliasService } from '../aliases/aliases.service';

export const IDENTITY_SERVICE_NAME = 'exchange.identity.v1.IdentityService';

/** The use cases start-up builds, one service per area. */
export interface IdentityServices {
  service: AgentService;
  aliases: AliasService;
}

// Every area of identity, one entry each; their handlers together make IdentityService. Adding
// an area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  serviceArea('agents', (s: IdentityServices, logger: Logger) => agentsHandlers(s.service, logger)),
  serviceArea('aliases', (s: IdentityServices, logger: Logger) => aliasesHandlers(s.aliases, logger)),
] as const;

/** IdentityService's handlers: every area's, merged. */
export function identityHandlers(s: IdentityServices, logger: Logger): identityV1.IdentityServiceServer {
  // Typed as the generated server: an RPC no area handles does not compile.
  return mergeAreaHandlers(AREAS, s, logger);
}

/** Adds IdentityService to the server libs/service-host starts (health is already there). */
export function registerIdentity(server: Server, services: IdentityServices, logger: Logger): void {
  server.addService(identityV1.IdentityServiceService, identityHandlers(services, logger));
}
