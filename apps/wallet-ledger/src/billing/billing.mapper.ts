import { formatAmount } from '@exchange/platform';
import { walletV1MeteringWire, type walletV1Metering } from '@exchange/proto';
import type { Reconciliation } from './billing.model';
import type { ProjectionCommand, ReconcileCommand } from './billing.service';

// proto → use-case inputs and the reconciliation's answer; projections and receipts → proto are
// shared with the outbox events (billing.events.ts).
export { toProtoPeriodReceipt, toProtoProjection } from './billing.events';

/** What the registry call carries of the request (its ids, for the logs). */

export const projectionCommand = (req: { agentId: string; period: string }): ProjectionCommand => ({ agentId: req.agentId, period: req.period });

export function reconcileCommand(req: walletV1Metering.ReconcilePeriodReceiptRequest): ReconcileCommand {
  if (req.receipt?.$case === 'periodReceiptId') return { periodReceiptId: req.receipt.value };
  if (req.receipt?.$case === 'presented') return { presented: { payloadJson: req.receipt.value.payloadJson, signature: req.receipt.value.signature } };
  return {};
}

export function toProtoReconciliation(r: Reconciliation): walletV1Metering.Reconciliation {
  return {
    periodReceiptId: r.periodReceiptId,
    agentId: r.agentId,
    period: r.period,
    consistent: r.consistent,
    signatureValid: r.signatureValid,
    differences: r.differences.map((d) => ({
      kind: walletV1MeteringWire.reconciliationDifferenceKind.toProto(d.kind),
      ref: d.ref,
      receiptJson: d.receiptJson,
      recomputedJson: d.recomputedJson,
      detail: d.detail,
    })),
    receiptTotals: r.receiptTotals.map((t) => ({ amount: formatAmount(t.amount), currency: t.currency })),
    recomputedTotals: r.recomputedTotals.map((t) => ({ amount: formatAmount(t.amount), currency: t.currency })),
    receiptEventCount: String(r.receiptEventCount),
    recomputedEventCount: String(r.recomputedEventCount),
    reconciledAt: r.reconciledAt,
  };
}
