import { ArtifactAccess } from '../artifacts/artifact-access.service';
import { ArtifactsService } from '../artifacts/artifacts.service';
import { AttestationsService } from '../attestations/attestations.service';
import { CasefilesService } from '../casefiles/casefiles.service';
import { ObjectsService } from '../objects/objects.service';
import type { RegistryContext } from './context';

/** The registry's use cases, one service per area, each given only what it uses; the area handlers call these. */
export class RegistryService {
  readonly objects: ObjectsService;
  readonly artifacts: ArtifactsService;
  readonly attestations: AttestationsService;
  readonly casefiles: CasefilesService;

  constructor(ctx: RegistryContext) {
    const access = new ArtifactAccess(ctx);
    this.objects = new ObjectsService(ctx);
    this.artifacts = new ArtifactsService(ctx, access);
    this.attestations = new AttestationsService(ctx);
    this.casefiles = new CasefilesService(ctx, this.objects, this.attestations, access);
  }
}
