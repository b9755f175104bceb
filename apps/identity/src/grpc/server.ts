import type { Server } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
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

/** One spec area of IdentityService: its slice's handlers, given the area services. */
function area<H extends object>(name: string, handlers: (s: IdentityServices, logger: Logger) => H) {
  return { name, handlers };
}

// Every area of identity, one entry each; their handlers together make IdentityService. Adding
// an area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  area('agents', (s, logger) => agentsHandlers(s.service, logger)),
  area('aliases', (s, logger) => aliasesHandlers(s.aliases, logger)),
] as const;

// Compile-time check: the areas together implement every RPC (grpc-js would answer a missing one
// UNIMPLEMENTED).
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type AreaHandlers = UnionToIntersection<ReturnType<(typeof AREAS)[number]['handlers']>>;
type Assert<T extends true> = T;
export type _AllRpcsImplemented = Assert<AreaHandlers extends identityV1.IdentityServiceServer ? true : false>;

/** IdentityService's handlers: every area's, merged. */
export function identityHandlers(s: IdentityServices, logger: Logger): identityV1.IdentityServiceServer {
  let handlers = {} as AreaHandlers;
  for (const a of AREAS) handlers = { ...handlers, ...a.handlers(s, logger) };
  return handlers;
}

/** Adds IdentityService to the server libs/service-host starts (health is already there). */
export function registerIdentity(server: Server, services: IdentityServices, logger: Logger): void {
  server.addService(identityV1.IdentityServiceService, identityHandlers(services, logger));
}
