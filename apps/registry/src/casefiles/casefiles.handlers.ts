import { unary, type Logger } from '@exchange/platform';
import type { registryV1 } from '@exchange/proto';
import { callerOf } from '../grpc/request.mapper';
import { casefileInput, casefileSubject, toProtoDocket } from './casefiles.mapper';
import type { CasefilesService } from './casefiles.service';

export type CasefilesRpcs = Pick<registryV1.RegistryServiceServer, 'exportReceipts' | 'exportCasefile' | 'verifyCasefile'>;

export function casefilesHandlers(casefiles: CasefilesService, logger: Logger): CasefilesRpcs {
  return {
    exportReceipts: unary(logger, 'ExportReceipts', async (req: registryV1.ExportReceiptsRequest, ctx) => ({
      docket: toProtoDocket(await casefiles.exportReceipts({ receiptIds: req.receiptIds, contractId: req.contractId }, callerOf(ctx))),
    })),
    exportCasefile: unary(logger, 'ExportCasefile', async (req: registryV1.ExportCasefileRequest, ctx) => ({
      docket: toProtoDocket(await casefiles.exportCasefile(casefileSubject(req.subject), req.includePayloads, callerOf(ctx))),
    })),
    verifyCasefile: unary(logger, 'VerifyCasefile', (req: registryV1.VerifyCasefileRequest) =>
      casefiles.verify(casefileInput(req.input), req.exchangePublicKey ?? ''),
    ),
  };
}
