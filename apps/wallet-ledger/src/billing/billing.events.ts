import { formatAmount } from '@exchange/platform';
import { walletV1Events, walletV1MeteringWire, type walletV1Metering } from '@exchange/proto';
import { envelope, WALLET_EVENT_TYPES, type Caller } from '../events/wallet.events';
import type { BillingProjection, PeriodReceipt } from './billing.model';
import type { BillingItem, BillingLine, MoneyTotal } from './projection';

// Domain → proto of the billing entities (the events' data and, through billing.mapper.ts, the RPC
// answers), and the area's outbox events. Events carry projections without their items (they can be
// 10 000): consumers read the projection for them.

const money = (t: MoneyTotal) => ({ amount: formatAmount(t.amount), currency: t.currency });

function toProtoItem(i: BillingItem): walletV1Metering.BillingItem {
  return {
    objectId: i.objectId,
    meter: i.meter,
    epoch: i.epoch,
    occurredAt: i.occurredAt,
    quantity: i.quantity.toString(),
    unitPrice: formatAmount(i.unitPrice),
    amount: formatAmount(i.amount),
    currency: i.currency,
  };
}

function toProtoLine(l: BillingLine): walletV1Metering.BillingLine {
  return {
    meter: l.meter,
    epoch: l.epoch,
    unitPrice: formatAmount(l.unitPrice),
    currency: l.currency,
    quantity: l.quantity.toString(),
    amount: formatAmount(l.amount),
    eventCount: String(l.eventCount),
  };
}

export function toProtoProjection(p: BillingProjection, opts: { items: boolean }): walletV1Metering.BillingProjection {
  return {
    projectionId: p.projectionId,
    agentId: p.agentId,
    period: p.period,
    status: walletV1MeteringWire.billingProjectionStatus.toProto(p.status),
    lines: p.figures.lines.map(toProtoLine),
    totals: p.figures.totals.map(money),
    items: opts.items ? p.figures.items.map(toProtoItem) : [],
    eventCount: String(p.figures.eventCount),
    eventsSha256: p.figures.eventsSha256,
    computedAt: p.computedAt,
    periodReceiptId: p.periodReceiptId ?? undefined,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export function toProtoPeriodReceipt(r: PeriodReceipt, opts: { items: boolean }): walletV1Metering.PeriodReceipt {
  return {
    periodReceiptId: r.periodReceiptId,
    agentId: r.agentId,
    period: r.period,
    status: walletV1MeteringWire.periodReceiptStatus.toProto(r.status),
    projectionId: r.projectionId,
    projection: toProtoProjection(r.projection, opts),
    objectId: r.objectId ?? undefined,
    payloadJson: r.payloadJson ?? undefined,
    signature: r.signature ?? undefined,
    signerPublicKey: r.signerPublicKey ?? undefined,
    emittedAt: r.emittedAt ?? undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Events of projections and period receipts; the subject is the billed agent. */
export const billingEvents = {
  projectionCreated: (p: BillingProjection, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.billing_projection_created,
      p.agentId,
      caller,
      walletV1Events.BillingProjectionChanged.toJSON({ projection: toProtoProjection(p, { items: false }) }),
    ),
  projectionAttached: (p: BillingProjection, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.billing_projection_attached,
      p.agentId,
      caller,
      walletV1Events.BillingProjectionChanged.toJSON({ projection: toProtoProjection(p, { items: false }) }),
    ),
  receiptEmitted: (r: PeriodReceipt, caller: Caller) =>
    envelope(
      WALLET_EVENT_TYPES.period_receipt_emitted,
      r.agentId,
      caller,
      walletV1Events.PeriodReceiptEmitted.toJSON({ receipt: toProtoPeriodReceipt(r, { items: false }) }),
    ),
};
