import { walletV1 } from '@exchange/proto';
import type { Controls } from '../domain/controls';
import type { Keyed, ListDepositsQuery, PageQuery, WalletBalances } from '../domain/wallet.commands';
import type { LedgerCheckReport } from '../data/ledger-check';
import {
  DEPOSIT_METHOD,
  DEPOSIT_STATUS,
  DESTINATION_TYPE,
  HOLD_STATUS,
  RECEIPT_KIND,
  WITHDRAWAL_STATUS,
  toProtoBalance,
  toProtoControls,
} from '../events/wallet.messages';

// proto ⇄ domain for the gRPC surface: requests become commands, read results become responses.
// Entity → proto lives in events/wallet.messages.ts (shared with the event encoder); mutation
// responses and their stored form in wallet.codecs.ts.

function reverse<K extends string, V extends number>(table: Record<K, V>): Map<V, K> {
  return new Map(Object.entries(table).map(([k, v]) => [v as V, k as K]));
}
export const DEPOSIT_METHOD_FROM = reverse(DEPOSIT_METHOD);
export const DEPOSIT_STATUS_FROM = reverse(DEPOSIT_STATUS);
export const DESTINATION_TYPE_FROM = reverse(DESTINATION_TYPE);
export const HOLD_STATUS_FROM = reverse(HOLD_STATUS);
export const WITHDRAWAL_STATUS_FROM = reverse(WITHDRAWAL_STATUS);
export const RECEIPT_KIND_FROM = reverse(RECEIPT_KIND);

/** UNSPECIFIED (or unknown) → undefined; the service decides whether that is allowed. */
export const fromProtoDepositMethod = (m: walletV1.DepositMethod) => DEPOSIT_METHOD_FROM.get(m);
export const fromProtoDestinationType = (t: walletV1.PayoutDestinationType) => DESTINATION_TYPE_FROM.get(t);

/** UNSPECIFIED → any status; a value the service does not know → null (validation_failed). */
export function fromProtoDepositStatusFilter(s: walletV1.DepositStatus): ListDepositsQuery['status'] {
  if (s === walletV1.DepositStatus.DEPOSIT_STATUS_UNSPECIFIED) return undefined;
  return DEPOSIT_STATUS_FROM.get(s) ?? null;
}

/** A keyed request as a command: the fields as sent, plus its proto3 JSON for the fingerprint. */
export function keyed<R extends { idempotencyKey: string }>(codec: { toJSON(message: R): unknown }, req: R): R & Keyed {
  return { ...req, requestJson: codec.toJSON(req) as Record<string, unknown> };
}

export function pageQuery(page: walletV1.ListDepositsRequest['page']): PageQuery | undefined {
  return page && { cursor: page.cursor, limit: page.limit };
}

export function pageInfo(nextCursor: string | null): { nextCursor: string } {
  return { nextCursor: nextCursor ?? '' };
}

export const toProtoBalances = (b: WalletBalances): walletV1.GetBalanceResponse => ({
  agentId: b.agentId,
  balances: b.balances.map(toProtoBalance),
  asOf: b.asOf,
});

export const toProtoControlsResponse = (c: Controls): { controls: walletV1.Controls } => ({ controls: toProtoControls(c) });

export function toProtoLedgerReport(report: LedgerCheckReport): walletV1.CheckLedgerResponse {
  return {
    ok: report.ok,
    accountsChecked: String(report.accountsChecked),
    entriesChecked: String(report.entriesChecked),
    postingsChecked: String(report.postingsChecked),
    globalSums: report.globalSums,
    discrepancies: report.discrepancies,
    checkedAt: report.checkedAt,
  };
}
