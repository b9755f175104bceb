import type { CheckoutStatus } from '../domain/ucp-types';
import type { ApprovalState, PaymentStage } from '../checkout/session.model';

// A session's lifecycle (table session_lifecycle): one row per state change, written in the
// transaction that made it, carrying the whole state after the change. Amounts are micro-units.

/** The checkout event verbs (checkout.events.ts) and the saga's outcomes (events/purchase.events.ts). */
export type LifecycleKind = 'created' | 'updated' | 'canceled' | 'approval_requested' | 'approval_decided' | 'completed' | 'payment_failed';

export interface LifecycleRow {
  commerceSessionId: string;
  seq: number;
  kind: string;
  status: CheckoutStatus;
  approval: ApprovalState;
  paymentStage: PaymentStage;
  total: bigint;
  currency: string;
  reason: string | null;
  actor: string | null;
  at: Date;
}

/** One entry as transparency shows it: the state before (the previous entry's) and after. */
export interface LifecycleEntry {
  seq: number;
  kind: string;
  from: string | null;
  to: string;
  reason: string | null;
  at: Date;
}

/**
 * A row's state as one label `<status>/<approval>/<payment_stage>` (e.g.
 * `ready_for_complete/pending/none`): a change of any of the three shows in from → to.
 */
export function stateLabel(r: Pick<LifecycleRow, 'status' | 'approval' | 'paymentStage'>): string {
  return `${r.status}/${r.approval}/${r.paymentStage}`;
}

/** Rows in seq order → entries, each `from` the previous entry's `to` (none for the first). */
export function toEntries(rows: readonly LifecycleRow[]): LifecycleEntry[] {
  let previous: string | null = null;
  return rows.map((r) => {
    const to = stateLabel(r);
    const entry: LifecycleEntry = { seq: r.seq, kind: r.kind, from: previous, to, reason: r.reason, at: r.at };
    previous = to;
    return entry;
  });
}

/** Why a change happened, when the state says it: the approval's reason or decision, the payment failure. */
export function reasonOf(
  kind: LifecycleKind,
  s: { approval: ApprovalState; approvalReason: string | null; failureReason: string | null },
): string | null {
  if (kind === 'approval_requested') return s.approvalReason;
  if (kind === 'approval_decided') return s.approval;
  if (kind === 'payment_failed') return s.failureReason;
  return null;
}
