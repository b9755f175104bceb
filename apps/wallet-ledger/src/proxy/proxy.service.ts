import { canonicalize } from '@exchange/crypto';
import { errors, newId } from '@exchange/platform';
import { CommerceMandates } from '../clients/commerce-mandates.client';
import { walletErrors } from '../domain/wallet.errors';
import type { Caller } from '../events/wallet.events';
import type { WalletAreasDeps } from '../service/area-wiring';
import { activeAgent } from '../service/use-case';
import { holdLimit, mandateHeadroom, mandateLimit, requireBudgetCurrency, spend, type ProxyBudget } from './budget';
import { parseMetricsWindow, windowStart, type ProxyMetrics } from './metrics-window';
import { parseRecordProxyCall, requireRun, type BudgetKey, type ProxyCall, type RecordProxyCallCommand, type ValidProxyCall } from './proxy-call';
import { MAX_CASEFILE_CALLS, proxyRunDocket } from './proxy-casefile';
import { proxyEvents } from './proxy.events';
import type { MandateSource } from './proxy.ports';
import { DuplicateProxyCallKey, ProxyRepo, type KeyedCall, type ProxyTx } from './proxy.repo';
import { ProxyMetricsRepo } from './proxy-metrics.repo';

export interface ProxyDeps extends Pick<WalletAreasDeps, 'agents' | 'clock' | 'signer' | 'afterCommit'> {
  repo: ProxyRepo;
  metrics: Pick<ProxyMetricsRepo, 'metrics'>;
  mandates: MandateSource;
}

export interface ProxyCallResult {
  call: ProxyCall;
  budget: ProxyBudget;
  idempotentReplayed: boolean;
}

/**
 * The gateway proxy's spend records (README.md "Gateway proxy"): a call is recorded only within
 * its budget — an agent hold or a commerce mandate — checked and counted in one transaction under
 * the budget row's lock. No money moves: the hold stays the agent's, the proxy only counts
 * what was spent against it.
 */
export class ProxyService {
  constructor(private readonly d: ProxyDeps) {}

  async recordProxyCall(cmd: RecordProxyCallCommand, caller: Caller): Promise<ProxyCallResult> {
    const v = parseRecordProxyCall(cmd);
    await activeAgent(this.d, v.agentId);
    const prior = v.idempotencyKey === null ? undefined : await this.d.repo.keyedCall(v.agentId, v.idempotencyKey);
    if (prior) return this.replay(prior, v, caller);

    // Commerce is read before the transaction: no row lock is held across a network call.
    const mandateLimitNow =
      v.budget.kind === 'mandate'
        ? await this.d.mandates
            .mandate(v.agentId, v.budget.ref, { traceId: caller.traceId ?? undefined })
            .then((m) => ({ limit: mandateLimit(m, v, this.d.clock()), currency: m.currency }))
        : undefined;

    try {
      const result = await this.d.repo.transaction(async (tx) => {
        if (await tx.readOnly()) throw walletErrors.readOnly();
        const locked = await this.lockBudget(tx, v, mandateLimitNow);
        const again = v.idempotencyKey === null ? undefined : await tx.keyedCall(v.agentId, v.idempotencyKey);
        if (again) return { again };
        const { budget } = locked;
        requireBudgetCurrency(budget.currency, v.currency);
        const after = spend(budget, v.cost);
        const call = this.newCall(v, budget.currency);
        await tx.record(call, v.fingerprint, after, proxyEvents.recorded(call, after, caller));
        return { recorded: { call, budget: after, idempotentReplayed: false } };
      });
      if (result.again) return this.replay(result.again, v, caller);
      this.d.afterCommit();
      return result.recorded;
    } catch (err) {
      // A concurrent call with the same key (another budget, so not serialised by its lock) won.
      if (!(err instanceof DuplicateProxyCallKey) || v.idempotencyKey === null) throw err;
      const winner = await this.d.repo.keyedCall(v.agentId, v.idempotencyKey);
      if (!winner) throw err;
      return this.replay(winner, v, caller);
    }
  }

  /** Locks the budget row (creating it on first use), then for a hold share-locks and checks the hold. */
  private async lockBudget(tx: ProxyTx, v: ValidProxyCall, mandate: { limit: bigint; currency: string } | undefined): Promise<{ budget: ProxyBudget }> {
    const { kind, ref } = v.budget;
    if (mandate) {
      const state = await tx.lockMandateBudget(ref, v.agentId, mandate.currency);
      return { budget: { kind, ref, currency: state.currency, limit: mandate.limit, spent: state.spent, calls: state.calls } };
    }
    const state = await tx.lockHoldBudget(ref);
    const hold = await tx.holdForShare(ref);
    if (!state || !hold) throw errors.notFound('hold', ref);
    const limit = holdLimit(hold, v.agentId, this.d.clock());
    return { budget: { kind, ref, currency: state.currency, limit, spent: state.spent, calls: state.calls } };
  }

  private newCall(v: ValidProxyCall, currency: string): ProxyCall {
    return {
      callId: newId('pxc'),
      agentId: v.agentId,
      runId: v.runId,
      upstream: v.upstream,
      operation: v.operation,
      cost: v.cost,
      currency,
      requestSha256: v.requestSha256,
      responseSha256: v.responseSha256,
      status: v.status,
      latencyMs: v.latencyMs,
      budgetKind: v.budget.kind,
      budgetRef: v.budget.ref,
      idempotencyKey: v.idempotencyKey,
      recordedAt: this.d.clock(),
    };
  }

  /** The same key again: the stored call if the request is the same (budget as it is now), else idempotency_key_reused. */
  private async replay(prior: KeyedCall, v: ValidProxyCall, caller: Caller): Promise<ProxyCallResult> {
    if (prior.fingerprint !== v.fingerprint) throw walletErrors.idempotencyKeyReused();
    const key: BudgetKey = { kind: prior.call.budgetKind, ref: prior.call.budgetRef };
    return { call: prior.call, budget: await this.budgetNow(key, v.agentId, caller), idempotentReplayed: true };
  }

  /** A budget's totals with its limit as of now (a hold's amount; a mandate's as commerce reports it). */
  private async budgetNow(key: BudgetKey, agentId: string, caller: Caller): Promise<ProxyBudget> {
    const state = await this.d.repo.budget(key);
    if (!state) throw new Error(`proxy budget ${key.kind}/${key.ref} of a recorded call is missing`);
    let limit: bigint;
    if (key.kind === 'hold') {
      limit = (await this.d.repo.hold(key.ref))?.amount ?? 0n;
    } else {
      limit = mandateHeadroom(await this.d.mandates.mandate(agentId, key.ref, { traceId: caller.traceId ?? undefined }));
    }
    return { ...key, currency: state.currency, limit, spent: state.spent, calls: state.calls };
  }

  /** The signed casefile of an agent's run: canonical docket JSON and the number of calls in it. */
  async exportProxyCasefile(req: { agentId: string; runId: string }): Promise<{ docketJson: string; callCount: number }> {
    requireRun(req);
    const calls = await this.d.repo.runCalls(req.agentId, req.runId, MAX_CASEFILE_CALLS + 1);
    if (calls.length === 0) throw errors.notFound('proxy_run', req.runId);
    if (calls.length > MAX_CASEFILE_CALLS) {
      throw errors.failedPrecondition('proxy_run_too_large', `run ${req.runId} has more than ${MAX_CASEFILE_CALLS} calls; a casefile holds at most that many`, {
        max_calls: MAX_CASEFILE_CALLS,
      });
    }
    const docket = proxyRunDocket(req, calls, this.d.clock(), this.d.signer.privateKey);
    return { docketJson: canonicalize(docket), callCount: calls.length };
  }

  async getProxyMetrics(req: { window?: string; asOf?: Date; agentId?: string; upstream?: string }): Promise<ProxyMetrics> {
    const window = parseMetricsWindow(req.window);
    const asOf = req.asOf ?? this.d.clock();
    const rows = await this.d.metrics.metrics({
      from: windowStart(window, asOf),
      asOf,
      agentId: req.agentId || null,
      upstream: req.upstream || null,
    });
    return { window, asOf, rows };
  }
}

/** Builds the area's service from the wallet's wiring (src/grpc/server.ts), taking only what it uses. */
export function createProxyService(d: WalletAreasDeps): ProxyService {
  return new ProxyService({
    agents: d.agents,
    clock: d.clock,
    signer: d.signer,
    afterCommit: d.afterCommit,
    repo: new ProxyRepo(d.pool),
    metrics: new ProxyMetricsRepo(d.pool),
    mandates: new CommerceMandates(d.commerce),
  });
}
