import { newId, uuidv7, type Logger } from '@exchange/platform';
import type pg from 'pg';
import * as contractsRepo from '../contracts/contracts.repo';
import type { Caller } from '../domain/caller';
import type { Contract, SagaStep } from '../domain/model';
import { walletKey } from '../domain/steps';
import { transition } from '../domain/states';
import { events } from '../events/market.events';
import { integrityChanged } from './integrity.events';
import { insertAudit, readIntegrity, saveCorrection } from './integrity.repo';

/** Params of a `correct` saga step (erroneous clear of a settled contract). */
export interface CorrectParams {
  buyerId: string;
  /** The settlement receipt reversed. */
  receiptId: string;
  reason: string;
  /** x-actor of the operator who asked ("operator:<name>"). */
  operator: string;
}

export function correctStep(contract: Contract, params: CorrectParams, now: Date): SagaStep {
  const stepId = uuidv7();
  return {
    stepId,
    contractId: contract.contractId,
    kind: 'correct',
    status: 'pending',
    params: { ...params },
    walletKey: walletKey(contract.contractId, 'correct', stepId),
    attempts: 0,
    lastError: null,
    lastFailureDefinite: false,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The market side of a completed correction, in the saga step's transaction: SETTLED →
 * CORRECTED with the correction receipt, exchange.market.contract.corrected, the audit row and
 * exchange.market.integrity.erroneous_clear.
 */
export async function applyCorrection(
  client: pg.PoolClient,
  contract: Contract,
  step: SagaStep,
  correctionReceiptId: string | undefined,
  now: Date,
  caller: Caller,
  logger: Logger,
): Promise<void> {
  const p = step.params as unknown as CorrectParams;
  if (contract.status !== 'settled' || correctionReceiptId === undefined) {
    // A pending correction blocks nothing else on a settled contract but a dispute, which drains it first.
    logger.error({ step_id: step.stepId, contract_id: contract.contractId, status: contract.status }, 'correction applied to a contract not settled');
    return;
  }
  const corrected: Contract = {
    ...contract,
    status: transition('contract', contract.status, 'corrected'),
    correctedAt: now,
    correctionReceiptId,
    correctionReason: p.reason,
    updatedAt: now,
  };
  await contractsRepo.saveContract(client, corrected);
  await saveCorrection(client, corrected);
  await events.contract(client, 'corrected', corrected, caller);
  const audit = {
    auditId: newId('aud'),
    action: 'erroneous_clear',
    operator: p.operator,
    reason: p.reason,
    subject: contract.contractId,
    details: {
      before: { status: contract.status, receipt_id: p.receiptId },
      after: { status: corrected.status, correction_receipt_id: correctionReceiptId },
    },
    createdAt: now,
  };
  await insertAudit(client, audit);
  await integrityChanged(client, audit, await readIntegrity(client), caller);
}
