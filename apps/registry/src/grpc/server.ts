import type { Server, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';
import { artifactsHandlers } from '../artifacts/artifacts.handlers';
import { attestationsHandlers } from '../attestations/attestations.handlers';
import { casefilesHandlers } from '../casefiles/casefiles.handlers';
import { objectsHandlers } from '../objects/objects.handlers';
import type { RegistryService } from '../service/registry.service';

export const REGISTRY_SERVICE_NAME = 'exchange.registry.v1.RegistryService';

/** Casefile archives travel in unary messages: registry server and its clients accept 64 MiB. */
export const REGISTRY_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** One spec area of RegistryService: its slice's handlers, given the area services. */
function area<H extends object>(name: string, handlers: (s: RegistryService, logger: Logger) => H) {
  return { name, handlers };
}

// Every area of the registry, one entry each (the proto's sections); their handlers together make
// RegistryService. Adding an area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  area('objects', (s, logger) => objectsHandlers(s.objects, logger)),
  area('artifacts', (s, logger) => artifactsHandlers(s.artifacts, logger)),
  area('attestations', (s, logger) => attestationsHandlers(s.attestations, s.casefiles, logger)),
  area('casefiles', (s, logger) => casefilesHandlers(s.casefiles, logger)),
] as const;

// Compile-time check: the areas together implement every RPC (grpc-js would answer a missing one
// UNIMPLEMENTED).
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type AreaHandlers = UnionToIntersection<ReturnType<(typeof AREAS)[number]['handlers']>>;
type Assert<T extends true> = T;
export type _AllRpcsImplemented = Assert<AreaHandlers extends registryV1.RegistryServiceServer ? true : false>;

/** RegistryService's handlers: every area's, merged. */
export function registryHandlers(s: RegistryService, logger: Logger): registryV1.RegistryServiceServer {
  let handlers = {} as AreaHandlers;
  for (const a of AREAS) handlers = { ...handlers, ...a.handlers(s, logger) };
  return handlers;
}

/** Adds RegistryService to the server libs/service-host starts (health is already there). */
export function registerRegistry(server: Server, handlers: registryV1.RegistryServiceServer): void {
  server.addService(registryV1.RegistryServiceService, handlers as unknown as UntypedServiceImplementation);
}
