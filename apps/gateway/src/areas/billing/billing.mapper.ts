import { canonicalize } from '@exchange/crypto';
import { walletV1MeteringWire as W, type walletV1Metering } from '@exchange/proto';
import { contractChecks, isoOrNull, orNull } from '../../lib/mapper-kit';
import { safeInt } from '../metering/metering.mapper';
import { WalletContractError } from '../wallets/wallet.mapper';
import type { BillingProjectionJson, PeriodReceiptJson, ReconcileBodyJson, ReconciliationJson } from './billing.schemas';

// Billing proto ⇄ REST (pure): int64 counts as integers, enums lowercase (wire tables), signed
// payloads and difference values (JSON text) parsed, absent optionals null.

const { required, enumToJson, iso, money, parsedJson } = contractChecks((what) => new WalletContractError(what));

const jsonOrNull = (text: string | undefined, what: string): unknown => (text === undefined || text === '' ? null : parsedJson(text, what));

export function projectionToJson(projection: walletV1Metering.BillingProjection | undefined): BillingProjectionJson {
  const p = required(projection, 'billing projection');
  return {
    projection_id: p.projectionId,
    agent_id: p.agentId,
    period: p.period,
    status: enumToJson(W.billingProjectionStatus, p.status, 'billing projection status'),
    lines: p.lines.map((l) => ({
      meter: l.meter,
      epoch: l.epoch,
      unit_price: l.unitPrice,
      currency: l.currency,
      quantity: l.quantity,
      amount: l.amount,
      event_count: safeInt(l.eventCount, 'billing line event_count'),
    })),
    totals: p.totals.map((m) => money(m, 'billing total')),
    items: p.items.map((i) => ({
      object_id: i.objectId,
      meter: i.meter,
      epoch: i.epoch,
      occurred_at: iso(i.occurredAt, 'billing item occurred_at'),
      quantity: i.quantity,
      unit_price: i.unitPrice,
      amount: i.amount,
      currency: i.currency,
    })),
    event_count: safeInt(p.eventCount, 'billing projection event_count'),
    events_sha256: p.eventsSha256,
    computed_at: iso(p.computedAt, 'billing projection computed_at'),
    period_receipt_id: orNull(p.periodReceiptId),
    created_at: iso(p.createdAt, 'billing projection created_at'),
    updated_at: iso(p.updatedAt, 'billing projection updated_at'),
  };
}

export function periodReceiptToJson(receipt: walletV1Metering.PeriodReceipt | undefined): PeriodReceiptJson {
  const r = required(receipt, 'period receipt');
  return {
    period_receipt_id: r.periodReceiptId,
    agent_id: r.agentId,
    period: r.period,
    status: enumToJson(W.periodReceiptStatus, r.status, 'period receipt status'),
    projection_id: r.projectionId,
    projection: projectionToJson(r.projection),
    object_id: orNull(r.objectId),
    payload: jsonOrNull(r.payloadJson, 'period receipt payload_json'),
    signature: orNull(r.signature),
    signer_public_key: orNull(r.signerPublicKey),
    emitted_at: isoOrNull(r.emittedAt),
    created_at: iso(r.createdAt, 'period receipt created_at'),
    updated_at: iso(r.updatedAt, 'period receipt updated_at'),
  };
}

/** The body's receipt (the route has checked that exactly one of the two is present). */
export function reconcileFromJson(body: ReconcileBodyJson): walletV1Metering.ReconcilePeriodReceiptRequest {
  if (body.receipt !== undefined) {
    return { receipt: { $case: 'presented', value: { payloadJson: canonicalize(body.receipt.payload), signature: body.receipt.signature } } };
  }
  return { receipt: { $case: 'periodReceiptId', value: body.period_receipt_id ?? '' } };
}

export function reconciliationToJson(reconciliation: walletV1Metering.Reconciliation | undefined): ReconciliationJson {
  const r = required(reconciliation, 'reconciliation');
  return {
    period_receipt_id: r.periodReceiptId,
    agent_id: r.agentId,
    period: r.period,
    consistent: r.consistent,
    signature_valid: r.signatureValid,
    differences: r.differences.map((d) => ({
      kind: enumToJson(W.reconciliationDifferenceKind, d.kind, 'reconciliation difference kind'),
      ref: d.ref,
      receipt: jsonOrNull(d.receiptJson, 'difference receipt_json'),
      recomputed: jsonOrNull(d.recomputedJson, 'difference recomputed_json'),
      detail: d.detail,
    })),
    receipt_totals: r.receiptTotals.map((m) => money(m, 'receipt total')),
    recomputed_totals: r.recomputedTotals.map((m) => money(m, 'recomputed total')),
    receipt_event_count: safeInt(r.receiptEventCount, 'receipt_event_count'),
    recomputed_event_count: safeInt(r.recomputedEventCount, 'recomputed_event_count'),
    reconciled_at: iso(r.reconciledAt, 'reconciled_at'),
  };
}
