import { resolveRollupRange } from '../domain/window';
import type { TelemetryRuntime } from '../service/runtime';
import type { TelemetryActor } from '../signals/signal-rules';
import { checkFilters, commerceOutcomes, contractOutcomes, requireReader, type OutcomeMetrics } from './outcome-rules';
import { checkoutTally, contractTally } from './outcomes.repo';

export type OutcomesDeps = Pick<TelemetryRuntime, 'pool' | 'clock'>;

export interface OutcomesRequest {
  actor: TelemetryActor | undefined;
  window: string | undefined;
  asOf: Date | undefined;
  merchantId: string | undefined;
  agentId: string | undefined;
}

/** Outcome metrics by window, merchant and agent (agents and the operator). */
export class OutcomesService {
  constructor(private readonly deps: OutcomesDeps) {}

  async metrics(req: OutcomesRequest): Promise<OutcomeMetrics> {
    requireReader(req.actor);
    const range = resolveRollupRange(req.window, req.asOf, this.deps.clock());
    const { merchantId, agentId } = checkFilters(req.merchantId, req.agentId);
    const [contracts, checkouts] = await Promise.all([
      merchantId === undefined ? contractTally(this.deps.pool, range, agentId) : Promise.resolve(undefined),
      checkoutTally(this.deps.pool, range, merchantId, agentId),
    ]);
    return {
      range,
      merchantId,
      agentId,
      contracts: contracts === undefined ? undefined : contractOutcomes(contracts),
      commerce: commerceOutcomes(checkouts),
    };
  }
}
