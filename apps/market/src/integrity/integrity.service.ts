import { errors, newId } from '@exchange/platform';
import type pg from 'pg';
import { withTransaction } from '@exchange/db';
import * as contractsRepo from '../contracts/contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import type { Page } from '../data/repo-kit';
import type { WalletClient } from '../clients/wallet.client';
import { requireOperator, type Caller } from '../domain/caller';
import * as v from '../domain/validation';
import type { Contract } from '../domain/model';
import { drain, runStep, type SagaDeps } from '../saga/executor';
import { asDomainError, walletUnavailable } from '../saga/wallet-errors';
import { inTransaction, pageQuery, type PageRequest } from '../service/service-kit';
import { correctStep } from './correction.service';
import { integrityChanged } from './integrity.events';
import { insertAudit, listAudit, readIntegrity, saveKillSwitch, saveState, type AuditEntry } from './integrity.repo';
import { checkStateChange, isKillSwitchName, KILL_SWITCHES, type Integrity, type IntegrityStateName } from './integrity-states';
import { syncWalletControls } from './wallet-sync.worker';

/** wallet-ledger's correction receipt, as its client returns it. */
export type WalletReceipt = Awaited<ReturnType<WalletClient['getReceipt']>>['receipt'];

export interface StateChange {
  /** The requested state, parsed after the operator check (so a non-operator gets 403 first). */
  state: () => IntegrityStateName;
  reason: string;
}

const AUDIT_ACTIONS = ['state_changed', 'kill_switch_set', 'erroneous_clear', 'buyer_alias_updated', 'resale_review_decided'];

/** The saga's deps: the erroneous clear runs a correct step, and every change pushes the wallet controls. */
export type IntegrityDeps = SagaDeps;

/**
 * MarketIntegrityService: state, kill switches, the audit log and the erroneous clear. Every
 * change locks the integrity row, writes its audit row and exchange.market.integrity.* event in
 * that transaction, then pushes the wallet controls (failure → wallet_controls_synced false,
 * retried by the integrity-wallet-sync worker).
 */
export class IntegrityService {
  constructor(private readonly ctx: IntegrityDeps) {}

  getState(): Promise<Integrity> {
    return readIntegrity(this.ctx.pool);
  }

  async setState(req: StateChange, caller: Caller): Promise<Integrity> {
    requireOperator(caller);
    const wanted = req.state();
    const reason = v.text('reason', req.reason, 1, 500);
    const integrity = await this.change(caller, reason, async (client, before, operator, now) => {
      checkStateChange(before.state, wanted);
      await saveState(client, wanted, reason, operator, now);
      return { action: 'state_changed', subject: wanted, details: { before: before.state, after: wanted } };
    });
    return integrity;
  }

  async setKillSwitch(req: { name: string; enabled: boolean; reason: string }, caller: Caller): Promise<Integrity> {
    requireOperator(caller);
    const name = req.name;
    if (!isKillSwitchName(name)) {
      throw errors.invalidArgument('validation_failed', `name must be one of ${KILL_SWITCHES.join(', ')}`, { field: 'name' });
    }
    const reason = v.text('reason', req.reason, 1, 500);
    const integrity = await this.change(caller, reason, async (client, before, operator, now) => {
      const was = before.killSwitches.find((k) => k.name === name)?.enabled ?? false;
      await saveKillSwitch(client, name, req.enabled, reason, operator, now);
      return { action: 'kill_switch_set', subject: name, details: { name, before: { enabled: was }, after: { enabled: req.enabled } } };
    });
    return integrity;
  }

  async listAudit(req: { action?: string; page?: PageRequest }, caller: Caller): Promise<Page<AuditEntry>> {
    requireOperator(caller);
    const action = req.action === undefined || req.action === '' ? undefined : req.action;
    if (action !== undefined && !AUDIT_ACTIONS.includes(action)) {
      throw errors.invalidArgument('validation_failed', `action must be one of ${AUDIT_ACTIONS.join(', ')}`, { field: 'action' });
    }
    return listAudit(this.ctx.pool, { action }, pageQuery(req.page));
  }

  /**
   * Erroneous clear: SETTLED → CORRECTED. A `correct` saga step is recorded under the contract
   * lock, then run: wallet-ledger reverses the settlement receipt (CorrectSettlement, key
   * mkt:<contract>:correct:<step>) and the step's transaction marks the contract corrected with
   * its audit row and events. A wallet refusal (insufficient_funds…) fails the step: the
   * contract stays SETTLED and a new request may try again.
   */
  async correctErroneousClear(req: { contractId: string; reason: string }, caller: Caller): Promise<{ contract: Contract; receipt: WalletReceipt }> {
    requireOperator(caller);
    if (req.contractId === '') throw errors.invalidArgument('validation_failed', 'contract_id is required', { field: 'contract_id' });
    const reason = v.text('reason', req.reason, 1, 500);
    if (!(await contractsRepo.getContract(this.ctx.pool, req.contractId))) throw errors.notFound('contract', req.contractId);
    const { reachable } = await drain(this.ctx, req.contractId);
    if (!reachable) throw walletUnavailable();
    const step = await withTransaction(this.ctx.pool, async (client) => {
      const c = await contractsRepo.lockContract(client, req.contractId);
      if (!c) throw errors.notFound('contract', req.contractId);
      if (c.status !== 'settled') throw errors.invalidState('contract', c.status, 'corrected');
      if (c.receiptId === null) {
        throw errors.failedPrecondition('invalid_state', 'the contract has no settlement receipt', { current: c.status, wanted: 'corrected' });
      }
      if (await stepsRepo.hasPendingStep(client, c.contractId, 'correct')) {
        throw errors.failedPrecondition('invalid_state', 'a correction of this contract is in progress', { current: c.status, wanted: 'corrected' });
      }
      const s = correctStep(c, { buyerId: c.buyerId, receiptId: c.receiptId, reason, operator: operatorOf(caller) }, this.ctx.clock());
      await stepsRepo.insertStep(client, s);
      return s;
    });
    const outcome = await runStep(this.ctx, step.stepId, caller);
    if (outcome.status === 'failed') throw asDomainError(outcome.error);
    if (outcome.status === 'pending') throw outcome.definite ? asDomainError(outcome.error) : walletUnavailable();
    const contract = await contractsRepo.getContract(this.ctx.pool, req.contractId);
    if (!contract || contract.correctionReceiptId === null) throw new Error('the correction was not recorded');
    const { receipt } = await this.ctx.wallet.getReceipt({ receiptId: contract.correctionReceiptId, contractId: '' });
    return { contract, receipt };
  }

  /** Pushes the wallet controls when wallet-ledger has not acknowledged the current version (worker, start-up). */
  syncWallet(opts: { force?: boolean } = {}): Promise<boolean> {
    return syncWalletControls(this.ctx, opts);
  }

  /** One integrity change: lock, apply, audit + event in one transaction; then the wallet push. */
  private async change(
    caller: Caller,
    reason: string,
    apply: (
      client: pg.PoolClient,
      before: Integrity,
      operator: string,
      now: Date,
    ) => Promise<{ action: string; subject: string; details: Record<string, unknown> }>,
  ): Promise<Integrity> {
    const operator = operatorOf(caller);
    await inTransaction(this.ctx, async (client) => {
      const before = await readIntegrity(client, { lock: true });
      const now = this.ctx.clock();
      const what = await apply(client, before, operator, now);
      const audit: AuditEntry = { auditId: newId('aud'), operator, reason, createdAt: now, ...what };
      await insertAudit(client, audit);
      await integrityChanged(client, audit, await readIntegrity(client), caller);
    });
    await syncWalletControls(this.ctx).catch((err) => {
      this.ctx.logger.warn({ err: (err as Error).message }, 'wallet controls push failed');
    });
    return readIntegrity(this.ctx.pool);
  }
}

function operatorOf(caller: Caller): string {
  return caller.actor ?? 'operator:unknown';
}
