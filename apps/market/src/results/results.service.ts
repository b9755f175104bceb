import { errors, newId } from '@exchange/platform';
import * as contractsRepo from '../contracts/contracts.repo';
import * as resultsRepo from './results.repo';
import type { Page } from '../data/repo-kit';
import { resolveParty, type Caller } from '../domain/caller';
import type { Contract, Result, ResultStatus, SagaStep } from '../domain/model';
import { transition } from '../domain/states';
import * as v from '../domain/validation';
import { events } from '../events/market.events';
import { notFound, pageQuery, type PageRequest } from '../service/service-kit';
import { enforceIntegrity } from '../integrity/gate.service';
import { ContractUseCases, type ContractKitDeps } from '../service/contract-kit';
import type { MarketRuntime } from '../service/runtime';

export interface NewResult {
  contractId: string;
  sellerId: string;
  summary: string;
  artifactRefs: readonly string[];
  payloadJson?: string;
}

export interface ResultQuery {
  contractId: string;
  sellerId?: string;
  /** Parsed after the page (a bad cursor is reported first), by the mapper. */
  status: () => ResultStatus | undefined;
  page?: PageRequest;
}

/** The contract kit's deps plus what results use cases read. */
export type ResultsDeps = ContractKitDeps & Pick<MarketRuntime, 'agents'>;

/** Results: the seller delivers; in verification mode auto or buyer the result may settle at once. */
export class ResultsService extends ContractUseCases<ResultsDeps> {
  async submitResult(req: NewResult, caller: Caller): Promise<{ result: Result; contract: Contract }> {
    const sellerId = resolveParty(caller, 'seller_id', req.sellerId);
    const summary = v.text('summary', req.summary, 1, 20000);
    const artifactRefs = v.artifactRefs(req.artifactRefs);
    const payloadJson = v.payloadJson(req.payloadJson);
    await this.contractOr404(req.contractId);
    await this.ctx.agents.active(sellerId);
    let settle: SagaStep | null = null;
    const result = await this.tx(async (client) => {
      const c = await contractsRepo.lockContract(client, req.contractId);
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
      await resultsRepo.insertResult(client, r);
      await events.result(client, 'submitted', r, caller);
      await events.contract(client, 'delivered', contract, caller);
      if (c.verificationMode === 'auto') {
        await enforceIntegrity(client, 'settle'); // refused → the whole delivery rolls back
        r = { ...r, status: transition('result', r.status, 'accepted') };
        await resultsRepo.setResultStatus(client, r.resultId, r.status, now);
        contract = { ...contract, status: transition('contract', contract.status, 'accepted') };
        settle = await this.insertSettleStep(client, contract, now);
        await events.result(client, 'accepted', r, caller);
        await events.contract(client, 'accepted', contract, caller);
      }
      await contractsRepo.saveContract(client, contract);
      return r;
    });
    if (settle) await this.runQuietly((settle as SagaStep).stepId, caller);
    const contract = await this.contractOr404(req.contractId);
    return { result, contract };
  }

  async getResult(resultId: string): Promise<Result> {
    const r = await resultsRepo.getResult(this.pool, resultId);
    if (!r) throw notFound('result', resultId);
    return r;
  }

  async listResults(req: ResultQuery): Promise<Page<Result>> {
    const q = pageQuery(req.page);
    const status = req.status();
    await this.contractOr404(req.contractId);
    return resultsRepo.listResults(this.pool, req.contractId, { sellerId: req.sellerId || undefined, status }, q);
  }
}
