import type { EntityWrite } from '../domain/ledger.ports';
import type { Receipt } from '../domain/receipt';
import type { Deposit, FaucetGrant, Hold, PayoutDestination, Transfer, Withdrawal } from '../domain/wallet.model';

// Domain entity → the JSON row wallet_apply() feeds to jsonb_populate_record(NULL::<table>, row):
// keys are the column names, every column present (a missing key would be NULL, not the default),
// bigints as strings (no precision loss), times as ISO strings.

const iso = (d: Date | null) => (d === null ? null : d.toISOString());
const big = (n: bigint | null) => (n === null ? null : n.toString());

function transferRow(t: Transfer) {
  return {
    transfer_id: t.transferId,
    from_agent_id: t.fromAgentId,
    to_agent_id: t.toAgentId,
    amount: big(t.amount),
    currency: t.currency,
    memo: t.memo,
    journal_entry_id: t.journalEntryId,
    created_at: iso(t.createdAt),
  };
}

function faucetGrantRow(g: FaucetGrant) {
  return {
    faucet_grant_id: g.faucetGrantId,
    agent_id: g.agentId,
    amount: big(g.amount),
    currency: g.currency,
    category: g.category,
    journal_entry_id: g.journalEntryId,
    granted_today: big(g.grantedToday),
    remaining_today: big(g.remainingToday),
    resets_at: iso(g.resetsAt),
    created_at: iso(g.createdAt),
  };
}

function holdRow(h: Hold) {
  return {
    hold_id: h.holdId,
    agent_id: h.agentId,
    amount: big(h.amount),
    currency: h.currency,
    status: h.status,
    expires_at: iso(h.expiresAt),
    reference: h.reference,
    consumed_amount: big(h.consumedAmount),
    released_amount: big(h.releasedAmount),
    consumed_to_agent_id: h.consumedToAgentId,
    journal_entry_ids: h.journalEntryIds,
    created_at: iso(h.createdAt),
    updated_at: iso(h.updatedAt),
    controller: h.controller,
  };
}

function depositRow(d: Deposit) {
  return {
    deposit_id: d.depositId,
    agent_id: d.agentId,
    amount: big(d.amount),
    currency: d.currency,
    method: d.method,
    reference: d.reference,
    status: d.status,
    journal_entry_id: d.journalEntryId,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}

function payoutDestinationRow(p: PayoutDestination) {
  return {
    payout_destination_id: p.payoutDestinationId,
    agent_id: p.agentId,
    type: p.type,
    details: p.details,
    label: p.label,
    created_at: iso(p.createdAt),
  };
}

function withdrawalRow(w: Withdrawal) {
  return {
    withdrawal_id: w.withdrawalId,
    agent_id: w.agentId,
    amount: big(w.amount),
    currency: w.currency,
    payout_destination_id: w.payoutDestinationId,
    status: w.status,
    failure_reason: w.failureReason,
    journal_entry_ids: w.journalEntryIds,
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
  };
}

function receiptRow(r: Receipt) {
  return {
    receipt_id: r.receiptId,
    kind: r.kind,
    contract_id: r.contractId,
    hold_id: r.holdId,
    payer: r.payer,
    payee: r.payee,
    amount: big(r.amount),
    fee: big(r.fee),
    refunded_amount: big(r.refundedAmount),
    currency: r.currency,
    journal_entry_ids: r.journalEntryIds,
    settled_at: iso(r.settledAt),
    signature: r.signature,
    signer_public_key: r.signerPublicKey,
    corrects_receipt_id: r.correctsReceiptId ?? null,
    reason: r.reason ?? null,
    refunds_receipt_id: r.refundsReceiptId ?? null,
    reference: r.reference ?? null,
  };
}

export function entityRow(write: EntityWrite): { t: string; r: Record<string, unknown> } {
  switch (write.table) {
    case 'transfers':
      return { t: write.table, r: transferRow(write.value) };
    case 'faucet_grants':
      return { t: write.table, r: faucetGrantRow(write.value) };
    case 'holds':
      return { t: write.table, r: holdRow(write.value) };
    case 'deposits':
      return { t: write.table, r: depositRow(write.value) };
    case 'withdrawals':
      return { t: write.table, r: withdrawalRow(write.value) };
    case 'payout_destinations':
      return { t: write.table, r: payoutDestinationRow(write.value) };
    case 'receipts':
      return { t: write.table, r: receiptRow(write.value) };
  }
}
