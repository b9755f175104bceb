import type { LedgerCheckReport } from './ledger-check';
import type { LedgerRepo } from './ledger.repo';

export interface LedgerDeps {
  repo: Pick<LedgerRepo, 'check'>;
  clock: () => Date;
}

/** The reconciliation: recomputes the ledger from the journal (CheckLedger, `npm run ledger:check`). */
export class LedgerService {
  constructor(private readonly ctx: LedgerDeps) {}

  checkLedger(): Promise<LedgerCheckReport> {
    return this.ctx.repo.check(this.ctx.clock());
  }
}
