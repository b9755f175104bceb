import { must } from '../domain/invariant';
import { errors, newId } from '@exchange/platform';
import * as contractsRepo from '../contracts/contracts.repo';
import * as resultsRepo from '../results/results.repo';
import * as verificationRepo from './verification.repo';
import type { Page } from '../data/repo-kit';
import { resolveParty, type Caller } from '../domain/caller';
import type { Contract, SagaStep, Verdict, VerificationReport } from '../domain/model';
import { transition } from '../domain/states';
import { checkChecks, checkScore, reportSigningPayload, verificationMetrics, windowStart, type MetricsWindow } from '../domain/verification';
import { events } from '../events/market.events';
import { notFound, pageQuery, type PageRequest } from '../service/service-kit';
import { enforceIntegrity } from '../integrity/gate.service';
import { ContractUseCases, type ContractKitDeps } from '../service/contract-kit';
import type { MarketRuntime } from '../service/runtime';

/** Base64 of a 64-byte ed25519 signature; anything else is not a signature (no identity call). */
const SIGNATURE_B64 = /^[A-Za-z0-9+/]{86}==$/;

export interface NewReport {
  contractId: string;
  verifierId: string;
  resultId: string;
  /** Parsed after the verifier is resolved (the mapper's enum check), as before. */
  verdict: () => Verdict;
  score: number;
  checks: ReadonlyArray<{ name: string; ok: boolean; detail?: string }>;
  signature: string;
}

/** The contract kit's deps plus what verification use cases read. */
export type VerificationDeps = ContractKitDeps & Pick<MarketRuntime, 'agents'>;

/** Verification reports: signed by the verifier (checked against identity), pass settles, fail reopens; and their metrics. */
export class VerificationService extends ContractUseCases<VerificationDeps> {
  async submitVerification(req: NewReport, caller: Caller): Promise<{ report: VerificationReport; contract: Contract }> {
    const verifierId = resolveParty(caller, 'verifier_id', req.verifierId);
    const verdict = req.verdict();
    const score = checkScore(req.score);
    const checks = checkChecks(req.checks.map((c) => (c.detail === undefined ? { name: c.name, ok: c.ok } : { name: c.name, ok: c.ok, detail: c.detail })));
    if (req.resultId === '') throw errors.invalidArgument('validation_failed', 'result_id is required', { field: 'result_id' });
    const c = await this.contractOr404(req.contractId);
    if (c.verificationMode === 'auto') {
      throw errors.failedPrecondition('invalid_state', 'a contract in verification mode auto settles on delivery; it takes no reports', {
        current: c.status,
        wanted: 'accepted',
      });
    }
    const signer = c.verificationMode === 'verifier' ? c.verifierId : c.buyerId;
    if (verifierId !== signer) throw errors.permissionDenied('not_contract_verifier', `${verifierId} does not verify this contract`);
    await this.ctx.agents.active(verifierId);
    const target = await resultsRepo.getResult(this.pool, req.resultId);
    if (!target || target.contractId !== c.contractId) throw notFound('result', req.resultId);
    const message = Buffer.from(reportSigningPayload({ verifierId, resultId: req.resultId, verdict, score, checks }), 'utf8');
    if (!SIGNATURE_B64.test(req.signature) || (await this.ctx.agents.verifySignature(verifierId, message, req.signature)) === null) {
      throw errors.invalidArgument('report_signature_invalid', 'the signature does not verify with a key of verifier_id');
    }
    if (verdict === 'pass') await enforceIntegrity(this.pool, 'settle');
    let settle: SagaStep | null = null;
    const report = await this.tx(async (client) => {
      const locked = must(await contractsRepo.lockContract(client, c.contractId), 'contract');
      const wanted = verdict === 'pass' ? 'accepted' : 'awarded';
      transition('contract', locked.status, wanted);
      const result = must(await resultsRepo.getResult(client, req.resultId), 'result');
      const latest = await resultsRepo.latestResult(client, c.contractId);
      if (result.status !== 'submitted' || latest?.resultId !== result.resultId) {
        throw errors.invalidState('result', result.status === 'submitted' ? 'superseded' : result.status, verdict === 'pass' ? 'accepted' : 'rejected');
      }
      const now = this.ctx.clock();
      const rep: VerificationReport = {
        reportId: newId('vrp'),
        contractId: c.contractId,
        resultId: result.resultId,
        verifierId,
        verdict,
        score,
        checks,
        signature: req.signature,
        resultCreatedAt: result.createdAt,
        createdAt: now,
      };
      await verificationRepo.insertReport(client, rep);
      await events.verification(client, rep, locked, caller);
      if (verdict === 'pass') {
        const r = { ...result, status: transition('result', result.status, 'accepted'), updatedAt: now };
        const after: Contract = { ...locked, status: 'accepted', updatedAt: now };
        await resultsRepo.setResultStatus(client, r.resultId, r.status, now);
        await contractsRepo.saveContract(client, after);
        settle = await this.insertSettleStep(client, after, now);
        await events.result(client, 'accepted', r, caller);
        await events.contract(client, 'accepted', after, caller);
      } else {
        const r = { ...result, status: transition('result', result.status, 'rejected'), updatedAt: now };
        const after: Contract = { ...locked, status: 'awarded', updatedAt: now };
        await resultsRepo.setResultStatus(client, r.resultId, r.status, now);
        await contractsRepo.saveContract(client, after);
        await events.result(client, 'rejected', r, caller);
        await events.contract(client, 'reopened', after, caller);
      }
      return rep;
    });
    if (settle) await this.runQuietly((settle as SagaStep).stepId, caller);
    const contract = await this.contractOr404(c.contractId);
    return { report, contract };
  }

  async getLatestVerification(contractId: string): Promise<VerificationReport> {
    await this.contractOr404(contractId);
    const r = await verificationRepo.latestReport(this.pool, contractId);
    if (!r) throw errors.notFound('verification', contractId);
    return r;
  }

  async listVerificationReports(req: { contractId: string; page?: PageRequest }): Promise<Page<VerificationReport>> {
    await this.contractOr404(req.contractId);
    return verificationRepo.listReports(this.pool, req.contractId, pageQuery(req.page));
  }

  /** The window arrives as a name (absent = all); figures as decimal strings, as the answer carries them. */
  async getVerificationMetrics(window: MetricsWindow) {
    const m = verificationMetrics(await verificationRepo.reportOutcomes(this.pool, windowStart(window, this.ctx.clock())));
    return {
      window,
      reports: String(m.reports),
      passed: String(m.passed),
      failed: String(m.failed),
      passRate: m.passRate ?? undefined,
      medianLatencyMs: m.medianLatencyMs === null ? undefined : String(m.medianLatencyMs),
    };
  }
}
