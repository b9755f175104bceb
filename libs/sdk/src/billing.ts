// Billing (operator only; DESIGN §4): projections of an agent's meter events over a UTC month,
// attached to the period receipt, emitted (exchange-signed) and reconciled.
import type { Transport } from './transport';
import type { api } from './wire';

export type BillingProjection = api.BillingProjection;
export type PeriodReceipt = api.PeriodReceipt;
export type Reconciliation = api.Reconciliation;
export type ReconciliationDifference = api.ReconciliationDifference;

/** The stored receipt by id, or a receipt as presented (its signed payload and signature). */
export type ReconcileInput = { periodReceiptId: string } | { receipt: { payload: Record<string, unknown>; signature: string } };

export class BillingApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/billing/projections: `period` a UTC month `YYYY-MM` that has begun. */
  createProjection(agentId: string, period: string): Promise<BillingProjection> {
    const body = { agent_id: agentId, period } satisfies api.CreateBillingProjectionRequest;
    return this.transport.request({ method: 'POST', path: '/v1/billing/projections', body });
  }

  /** Attaches the projection to its agent's period receipt (the previous one becomes superseded). */
  attach(projectionId: string): Promise<PeriodReceipt> {
    const body = { projection_id: projectionId } satisfies api.AttachBillingProjectionRequest;
    return this.transport.request({ method: 'POST', path: '/v1/billing/projections/attach', body });
  }

  /** Signs and stores the period receipt (the month must have ended); `created` false when it had been emitted. */
  async emit(agentId: string, period: string): Promise<{ receipt: PeriodReceipt; created: boolean }> {
    const body = { agent_id: agentId, period } satisfies api.EmitPeriodReceiptRequest;
    const res = await this.transport.send<PeriodReceipt>({ method: 'POST', path: '/v1/billing/receipts/emit', body });
    return { receipt: res.body, created: res.status === 201 };
  }

  /** Recomputes a receipt from the meter events and lists every difference. */
  reconcile(input: ReconcileInput): Promise<Reconciliation> {
    const body = ('periodReceiptId' in input ? { period_receipt_id: input.periodReceiptId } : { receipt: input.receipt }) satisfies api.ReconcilePeriodReceiptRequest;
    return this.transport.request({ method: 'POST', path: '/v1/billing/reconciliation', body });
  }
}
