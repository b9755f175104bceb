import { errors, newId } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import * as repo from '../data/market.repo';
import { resolveParty, type Caller } from '../domain/caller';
import type { Contract, Result, SagaStep } from '../domain/model';
import { transition } from '../domain/states';
import * as v from '../domain/validation';
import { events } from '../events/market.events';
import * as map from '../grpc/market.mapper';
import { idempotent } from '../service/idempotency';
import { notFound, pageQuery } from '../service/service-kit';
import { enforceIntegrity } from '../integrity/gate.service';
import { ContractUseCases } from '../service/contract-kit';

/** Results: the seller delivers; in verification mode auto or buyer the result may settle at once. */
export class ResultsService extends ContractUseCases {
  submitResult(req: marketV1.SubmitResultRequest, caller: Caller): Promise<marketV1.SubmitResultResponse> {
    return idempotent(this.ctx, caller, 'SubmitResult', req, marketV1.SubmitResultRequest.toJSON(req), marketV1.SubmitResultResponse, async () => {
      const sellerId = resolveParty(caller, 'seller_id', req.sellerId);
      const summary = v.text('summary', req.summary, 1, 20000);
      const artifactRefs = v.artifactRefs(req.artifactRefs);
      const payloadJson = v.payloadJson(req.payloadJson);
      await this.contractOr404(req.contractId);
      await this.ctx.agents.active(sellerId);
      let settle: SagaStep | null = null;
      const result = await this.tx(async (client) => {
        const c = await repo.lockContract(client, req.contractId);
        if (!c) throw notFound('contract', req.contractId);
        if (c.sellerId === null || c.sellerId !== sellerId) throw errors.permissionDenied('not_awarded_seller', 'only the awarded seller may submit a result');
        const now = this.ctx.clock();
        let contract: Contract = { ...c, status: transition('contract', c.status, 'delivered'), updatedAt: now };
        let r: Result = {
          resultId: newId('res'),
          contractId: c.contractId,
          sellerId,
          summary,
          artifactRefs,
          payloadJson,
          status: 'submitted',
          createdAt: now,
          updatedAt: now,
        };
        await repo.insertResult(client, r);
        await events.result(client, 'submitted', r, caller);
        await events.contract(client, 'delivered', contract, caller);
        if (c.verificationMode === 'auto') {
          await enforceIntegrity(client, 'settle'); // refused → the whole delivery rolls back
          r = { ...r, status: transition('result', r.status, 'accepted') };
          await repo.setResultStatus(client, r.resultId, r.status, now);
          contract = { ...contract, status: transition('contract', contract.status, 'accepted') };
          settle = await this.insertSettleStep(client, contract, now);
          await events.result(client, 'accepted', r, caller);
          await events.contract(client, 'accepted', contract, caller);
        }
        await repo.saveContract(client, contract);
        return r;
      });
      if (settle) await this.runQuietly((settle as SagaStep).stepId, caller);
      const contract = await this.contractOr404(req.contractId);
      return { result: map.toProtoResult(result), contract: map.toProtoContract(contract), idempotentReplayed: false };
    });
  }

  async getResult(req: marketV1.GetResultRequest): Promise<marketV1.GetResultResponse> {
    const r = await repo.getResult(this.pool, req.resultId);
    if (!r) throw notFound('result', req.resultId);
    return { result: map.toProtoResult(r) };
  }

  async listResults(req: marketV1.ListResultsRequest): Promise<marketV1.ListResultsResponse> {
    const q = pageQuery(req.page);
    const status = map.optionalEnum(map.resultStatus, req.status, 'status');
    await this.contractOr404(req.contractId);
    const page = await repo.listResults(this.pool, req.contractId, { sellerId: req.sellerId || undefined, status }, q);
    return { results: page.data.map(map.toProtoResult), page: { nextCursor: page.nextCursor ?? '' } };
  }
}
