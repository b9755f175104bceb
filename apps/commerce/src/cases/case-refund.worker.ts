import { creditCase, type CaseRefundDeps } from './case-refund.service';
import { pendingRefunds } from './cases.repo';

const BATCH = 100;

/**
 * One recovery round of case refunds: approved cases whose credit is still pending (wallet-ledger
 * did not answer, or the process died between the approval's commit and the credit) and has not
 * moved for `minAgeMs` (0 at start-up) are credited with their case's idempotency key, so a
 * credit wallet-ledger already made is replayed, not paid again. A case wallet-ledger refused for
 * good is not retried (its refund_refused event). Never throws. Returns how many were credited.
 */
export async function recoverCaseRefunds(d: CaseRefundDeps, minAgeMs: number): Promise<number> {
  let caseIds: string[];
  try {
    caseIds = await pendingRefunds(d.pool, new Date(d.clock().getTime() - minAgeMs), BATCH);
  } catch (err) {
    d.logger.warn({ err: (err as Error).message }, 'case refund recovery could not list cases');
    return 0;
  }
  let credited = 0;
  for (const caseId of caseIds) {
    try {
      if ((await creditCase(d, caseId)).kind === 'credited') credited++;
    } catch (err) {
      d.logger.warn({ case_id: caseId, err: (err as Error).message }, 'case refund recovery: case not credited yet');
    }
  }
  return credited;
}
