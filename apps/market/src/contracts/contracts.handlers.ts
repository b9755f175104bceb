import { unary } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { caller, type HandlerDeps } from '../grpc/handler-kit';
import { idempotent } from '../grpc/idempotency';
import * as map from './contracts.mapper';
import type { ContractsService } from './contracts.service';

type ContractsRpcs = 'createContract' | 'getContract' | 'listContracts' | 'cancelContract';

/** The MarketService RPCs of contracts: proto in, proto out (the stored idempotent answer is the proto). */
export function contractsHandlers(s: ContractsService, deps: HandlerDeps): Pick<marketV1.MarketServiceServer, ContractsRpcs> {
  const logger = deps.logger;
  return {
    createContract: unary(logger, 'CreateContract', (req: marketV1.CreateContractRequest, ctx) =>
      idempotent(deps, caller(ctx), 'CreateContract', req, marketV1.CreateContractRequest.toJSON(req), marketV1.CreateContractResponse, async () => {
        const verificationMode = () =>
          req.verificationMode === marketV1.VerificationMode.VERIFICATION_MODE_UNSPECIFIED ? null : map.requiredEnum(map.verificationMode, req.verificationMode, 'verification_mode');
        return { contract: map.toProtoContract(await s.createContract({ ...req, verificationMode }, caller(ctx))), idempotentReplayed: false };
      }),
    ),
    getContract: unary(logger, 'GetContract', async (req: marketV1.GetContractRequest, ctx) => ({
      contract: map.toProtoContract(await s.getContract(req.contractId, caller(ctx))),
    })),
    listContracts: unary(logger, 'ListContracts', async (req: marketV1.ListContractsRequest, ctx) => {
      const page = await s.listContracts({ ...req, status: () => map.optionalEnum(map.contractStatus, req.status, 'status') }, caller(ctx));
      return { contracts: page.data.map(map.toProtoContract), page: { nextCursor: page.nextCursor ?? '' } };
    }),
    cancelContract: unary(logger, 'CancelContract', (req: marketV1.CancelContractRequest, ctx) =>
      idempotent(deps, caller(ctx), 'CancelContract', req, marketV1.CancelContractRequest.toJSON(req), marketV1.CancelContractResponse, async () => ({
        contract: map.toProtoContract(await s.cancelContract(req, caller(ctx))),
        idempotentReplayed: false,
      })),
    ),
  };
}
