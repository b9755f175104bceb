import { errorInfoFromGrpc, formatAmount, type CallOptions } from '@exchange/platform';
import { marketV1, marketV1Wire } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import type { ContractStatus } from '../domain/model';
import { MarketRefusal, type MarketPort, type PostedContract, type ShardPosting } from '../domain/ports';
import type { ResultFacts } from '../domain/run-progress';
import type { MarketClient } from './clients';

// The market as the engine sees it. Workflows calls as an operator ("operator:workflows", the
// market's x-actor metadata) acting for the run's owner (x-agent-id = buyer_id): CreateContract
// takes buyer_id = the acting agent, and CancelContract lets an operator cancel an awarded
// contract as well as an open one (escrow released by the market).

export const WORKFLOWS_ACTOR = 'operator:workflows';

/** Codes that mean "try again later" even though gRPC calls them a refusal. */
const TRANSIENT_CODES = new Set(['idempotency_in_progress', 'award_in_progress', 'identity_unavailable', 'wallet_unavailable']);
const REFUSALS = new Set<number>([status.INVALID_ARGUMENT, status.NOT_FOUND, status.PERMISSION_DENIED, status.FAILED_PRECONDITION, status.ALREADY_EXISTS]);

function translate(err: unknown): Error {
  const info = errorInfoFromGrpc(err);
  if (REFUSALS.has(info.grpcCode) && !TRANSIENT_CODES.has(info.code)) return new MarketRefusal(info.code, info.message);
  return err instanceof Error ? err : new Error(info.message);
}

function contractStatus(value: marketV1.ContractStatus): ContractStatus {
  return (marketV1Wire.contractStatus.toWire(value) ?? 'open') as ContractStatus;
}

export function marketPort(market: MarketClient): MarketPort {
  return {
    async postShardContract(p: ShardPosting): Promise<PostedContract> {
      const opts: CallOptions = { actor: WORKFLOWS_ACTOR, agentId: p.buyerId };
      try {
        const { contract } = await market.createContract(
          {
            ...marketV1.CreateContractRequest.fromPartial({}),
            buyerId: p.buyerId,
            title: p.spec.title,
            description: p.spec.description,
            tags: p.spec.tags,
            budget: { amount: formatAmount(p.spec.budget), currency: p.spec.currency },
            deadline: p.deadline,
            acceptanceCriteria: p.spec.acceptanceCriteria,
            verificationMode: marketV1Wire.verificationMode.fromWire(p.spec.verificationMode) ?? marketV1.VerificationMode.VERIFICATION_MODE_UNSPECIFIED,
            verifierId: p.spec.verifierId ?? undefined,
            idempotencyKey: p.idempotencyKey,
            labels: p.labels,
            inputRefs: p.inputRefs,
          },
          opts,
        );
        if (!contract) throw new Error('CreateContract answered without a contract');
        return { contractId: contract.contractId, status: contractStatus(contract.status) };
      } catch (err) {
        throw translate(err);
      }
    },

    async cancelContract(contractId: string, idempotencyKey: string, reason: string): Promise<ContractStatus> {
      try {
        const { contract } = await market.cancelContract({ contractId, reason, idempotencyKey }, { actor: WORKFLOWS_ACTOR });
        return contract ? contractStatus(contract.status) : 'cancelled';
      } catch (err) {
        throw translate(err);
      }
    },

    async results(contractId: string): Promise<ResultFacts[]> {
      const out: ResultFacts[] = [];
      let cursor = '';
      // A contract has few results; the loop only guards against a long history of rejections.
      for (let i = 0; i < 20; i++) {
        const res = await market.listResults({ contractId, page: { limit: 200, cursor } }, { actor: WORKFLOWS_ACTOR });
        for (const r of res.results) {
          out.push({ resultId: r.resultId, accepted: r.status === marketV1.ResultStatus.RESULT_STATUS_ACCEPTED, artifactRefs: r.artifactRefs });
        }
        cursor = res.page?.nextCursor ?? '';
        if (cursor === '') break;
      }
      return out;
    },
  };
}
