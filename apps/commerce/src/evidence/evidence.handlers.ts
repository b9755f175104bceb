import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import { toListArtifactsResponse, toVerifyCasefileResponse } from './evidence.mapper';
import { EvidenceService } from './evidence.service';

export function evidenceHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'listArtifacts' | 'exportCasefile' | 'verifyCasefile'> {
  const evidence = new EvidenceService({ pool: r.pool, exchangeSigner: r.exchangeSigner, clock: r.clock });
  return {
    listArtifacts: unary(logger, 'ListArtifacts', async (req: commerceV1.ListArtifactsRequest) =>
      toListArtifactsResponse(await evidence.listArtifacts(req.actor, req.commerceSessionId, req.page)),
    ),
    exportCasefile: unary(logger, 'ExportCasefile', async (req: commerceV1.ExportCasefileRequest) => ({
      docketJson: await evidence.exportCasefile(req.actor, req.commerceSessionId),
    })),
    verifyCasefile: unary(logger, 'VerifyCasefile', async (req: commerceV1.VerifyCasefileRequest) =>
      toVerifyCasefileResponse(await evidence.verifyCasefile(req.actor, req.commerceSessionId, req.docketJson, req.exchangePublicKey)),
    ),
  };
}
