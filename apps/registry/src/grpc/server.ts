import type { Server, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Logger } from '@exchange/platform';
import { mergeAreaHandlers, serviceArea } from '@exchange/service-host';
import { registryV1 } from '@exchange/proto';
import { artifactsHandlers } from '../artifacts/artifacts.handlers';
import { attestationsHandlers } from '../attestations/attestations.handlers';
import { casefilesHandlers } from '../casefiles/casefiles.handlers';
import { objectsHandlers } from '../objects/objects.handlers';
import type { RegistryService } from '../service/registry.service';

export const REGISTRY_SERVICE_NAME = 'exchange.registry.v1.RegistryService';

/** Casefile archives travel in unary messages: registry server and its clients accept 64 MiB. */
export const REGISTRY_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

// Every area of the registry, one entry each (the proto's sections); their handlers together make
// RegistryService. Adding an area: its slice under src/<area>/ and one entry here.
export const AREAS = [
  serviceArea('objects', (s: RegistryService, logger: Logger) => objectsHandlers(s.objects, logger)),
  serviceArea('artifacts', (s: RegistryService, logger: Logger) => artifactsHandlers(s.artifacts, logger)),
  serviceArea('attestations', (s: RegistryService, logger: Logger) => attestationsHandlers(s.attestations, s.casefiles, logger)),
  serviceArea('casefiles', (s: RegistryService, logger: Logger) => casefilesHandlers(s.casefiles, logger)),
] as const;

/** RegistryService's handlers: every area's, merged. */
export function registryHandlers(s: RegistryService, logger: Logger): registryV1.RegistryServiceServer {
  // Typed as the generated server: an RPC no area handles does not compile.
  return mergeAreaHandlers(AREAS, s, logger);
}

/** Adds RegistryService to the server libs/service-host starts (health is already there). */
export function registerRegistry(server: Server, handlers: registryV1.RegistryServiceServer): void {
  server.addService(registryV1.RegistryServiceService, handlers as unknown as UntypedServiceImplementation);
}
