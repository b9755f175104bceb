import { ArtifactsService } from './artifacts.service';
import { CasefilesService } from './casefiles.service';
import type { RegistryContext } from './context';
import { ObjectsService } from './objects.service';

/** The registry's use cases, by area; the gRPC handlers call these. */
export class RegistryService {
  readonly objects: ObjectsService;
  readonly artifacts: ArtifactsService;
  readonly casefiles: CasefilesService;

  constructor(readonly ctx: RegistryContext) {
    this.objects = new ObjectsService(ctx);
    this.artifacts = new ArtifactsService(ctx);
    this.casefiles = new CasefilesService(ctx, this.objects, this.artifacts);
  }
}
