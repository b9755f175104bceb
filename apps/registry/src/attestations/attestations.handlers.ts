import { unary, type Logger } from '@exchange/platform';
import type { registryV1 } from '@exchange/proto';
import type { CasefilesService } from '../casefiles/casefiles.service';
import { toProtoDocket } from '../casefiles/casefiles.mapper';
import { callerOf, pageRequest } from '../grpc/request.mapper';
import { attestationQuery, toProtoObject } from './attestations.mapper';
import type { AttestationsService } from './attestations.service';

export type AttestationsRpcs = Pick<registryV1.RegistryServiceServer, 'queryAttestations' | 'exportAttestations'>;

/** Queries here; the export is a docket, sealed by the casefiles service. */
export function attestationsHandlers(attestations: AttestationsService, casefiles: CasefilesService, logger: Logger): AttestationsRpcs {
  return {
    queryAttestations: unary(logger, 'QueryAttestations', async (req: registryV1.QueryAttestationsRequest, ctx) => {
      const { items, nextCursor } = await attestations.query(attestationQuery(req), pageRequest(req.page), callerOf(ctx));
      return { attestations: items.map(toProtoObject), page: { nextCursor } };
    }),
    exportAttestations: unary(logger, 'ExportAttestations', async (req: registryV1.ExportAttestationsRequest, ctx) => ({
      docket: toProtoDocket(await casefiles.exportAttestations(attestationQuery(req), callerOf(ctx))),
    })),
  };
}
