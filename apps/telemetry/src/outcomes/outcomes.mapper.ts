import { formatAmount } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { TelemetryActor } from '../signals/signal-rules';
import type { OutcomeMetrics } from './outcome-rules';
import type { OutcomesRequest } from './outcomes.service';

// proto ⇄ domain for outcome metrics (counts as decimal strings, amounts with their currency).

const s = (n: number) => String(n);
const opt = (n: number | undefined) => (n === undefined ? undefined : String(n));

function actorOf(actor: telemetryV1.Actor | undefined): TelemetryActor | undefined {
  return actor === undefined ? undefined : { agentId: actor.agentId, operator: actor.operator };
}

export function outcomesRequest(req: telemetryV1.GetOutcomeMetricsRequest): OutcomesRequest {
  return { actor: actorOf(req.actor), window: req.query?.window, asOf: req.query?.asOf, merchantId: req.merchantId, agentId: req.agentId };
}

export function toProtoOutcomes(m: OutcomeMetrics): telemetryV1.OutcomeMetrics {
  const c = m.contracts;
  return {
    window: { window: m.range.window, from: m.range.from ?? undefined, asOf: m.range.asOf },
    merchantId: m.merchantId,
    agentId: m.agentId,
    contracts:
      c === undefined
        ? undefined
        : {
            terminal: s(c.terminal),
            settled: s(c.settled),
            refunded: s(c.refunded),
            split: s(c.split),
            cancelled: s(c.cancelled),
            expired: s(c.expired),
            disputed: s(c.disputed),
            successRate: c.successRate,
            refundRate: c.refundRate,
            disputeRate: c.disputeRate,
            medianTimeToSettleMs: opt(c.medianTimeToSettleMs),
            p90TimeToSettleMs: opt(c.p90TimeToSettleMs),
          },
    commerce: {
      ended: s(m.commerce.ended),
      completed: s(m.commerce.completed),
      canceled: s(m.commerce.canceled),
      failed: s(m.commerce.failed),
      successRate: m.commerce.successRate,
      medianTimeToCompleteMs: opt(m.commerce.medianTimeToCompleteMs),
      volume: m.commerce.volume.map((v) => ({ amount: formatAmount(v.amount), currency: v.currency })),
    },
  };
}
