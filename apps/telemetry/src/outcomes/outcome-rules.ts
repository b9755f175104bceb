import { errors, isDnsName } from '@exchange/platform';
import { median, nearestRank, rate } from '../domain/rates';
import type { RollupRange } from '../domain/window';
import { isAgentId, type TelemetryActor } from '../signals/signal-rules';

// Outcome metrics (README "Reports and outcome metrics"): who may read them, the filters, and the
// rates from the counts.

export interface OutcomeFilters {
  merchantId: string | undefined;
  agentId: string | undefined;
}

export interface ContractTally {
  settled: number;
  refunded: number;
  split: number;
  cancelled: number;
  expired: number;
  /** Of those, ever disputed. */
  disputed: number;
  /** created → settled of the settled ones, ms. */
  settleMs: number[];
}

export interface CheckoutTally {
  completed: number;
  canceled: number;
  /** Ended otherwise: a payment failure. */
  failed: number;
  /** created → completed of the completed ones, ms. */
  completeMs: number[];
  volume: Array<{ currency: string; amount: bigint }>;
}

/** The tally's counts, their total and rates. */
export interface ContractOutcomes extends Omit<ContractTally, 'settleMs'> {
  terminal: number;
  successRate: number | undefined;
  refundRate: number | undefined;
  disputeRate: number | undefined;
  medianTimeToSettleMs: number | undefined;
  p90TimeToSettleMs: number | undefined;
}

export interface CommerceOutcomes extends Omit<CheckoutTally, 'completeMs'> {
  ended: number;
  successRate: number | undefined;
  medianTimeToCompleteMs: number | undefined;
}

export interface OutcomeMetrics {
  range: RollupRange;
  merchantId: string | undefined;
  agentId: string | undefined;
  /** Absent with merchant_id: a merchant has no contracts. */
  contracts: ContractOutcomes | undefined;
  commerce: CommerceOutcomes;
}

function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', `${field} ${message}`, { field });
}

/** Agents and the operator read outcome metrics (aggregates only). */
export function requireReader(actor: TelemetryActor | undefined): void {
  if (actor?.operator) return;
  if (actor && isAgentId(actor.agentId)) return;
  throw errors.permissionDenied('forbidden', 'outcome metrics are read by an agent or the operator');
}

/** merchant_id a DNS name, agent_id an agent id; empty strings count as absent. */
export function checkFilters(merchantId: string | undefined, agentId: string | undefined): OutcomeFilters {
  const merchant = merchantId === '' ? undefined : merchantId;
  const agent = agentId === '' ? undefined : agentId;
  if (merchant !== undefined && !isDnsName(merchant)) invalid('merchant_id', 'must be a merchant domain (lower-case DNS name)');
  if (agent !== undefined && !isAgentId(agent)) invalid('agent_id', 'must look like <namespace>:agent:<name>');
  return { merchantId: merchant, agentId: agent };
}

export function contractOutcomes(t: ContractTally): ContractOutcomes {
  const terminal = t.settled + t.refunded + t.split + t.cancelled + t.expired;
  return {
    terminal,
    settled: t.settled,
    refunded: t.refunded,
    split: t.split,
    cancelled: t.cancelled,
    expired: t.expired,
    disputed: t.disputed,
    successRate: rate(t.settled, terminal),
    refundRate: rate(t.refunded, terminal),
    disputeRate: rate(t.disputed, terminal),
    medianTimeToSettleMs: median(t.settleMs),
    p90TimeToSettleMs: nearestRank(t.settleMs, 90),
  };
}

export function commerceOutcomes(t: CheckoutTally): CommerceOutcomes {
  const ended = t.completed + t.canceled + t.failed;
  return {
    ended,
    completed: t.completed,
    canceled: t.canceled,
    failed: t.failed,
    successRate: rate(t.completed, ended),
    medianTimeToCompleteMs: median(t.completeMs),
    volume: t.volume,
  };
}
