import { recordEntry, signDocket, type Docket, type DocketEntry } from '@exchange/casefile';
import { formatAmount } from '@exchange/platform';
import { chainHead } from './evidence-access';
import { MONEY_COLUMNS, type CasefileSources, type StoredRow } from './casefile-sources.model';
import type { EvidenceRecord } from './evidence.model';

// A session's casefile docket (libs/casefile), signed by the exchange key: the session, its
// mandate (signed payload and signature), every evidence item in chain order, then the purchase
// and the wallet's receipt. The subject pins the evidence head, so the chain inside the docket can
// be re-verified offline from 64 zeros to that head.

/** A row as a casefile shows it: timestamps ISO 8601, money as exchange decimals, absent → null. */
export function recordView(row: StoredRow, moneyColumns: readonly string[]): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value === undefined || value === null) view[key] = null;
    else if (value instanceof Date) view[key] = value.toISOString();
    else if (moneyColumns.includes(key)) view[key] = formatAmount(BigInt(value as string | bigint));
    else view[key] = value;
  }
  return view;
}

/** An evidence item as a casefile entry carries it: enough to recompute its link of the chain. */
export function evidenceView(item: EvidenceRecord): Record<string, unknown> {
  return {
    evidence_id: item.evidenceId,
    commerce_session_id: item.commerceSessionId,
    seq: item.seq,
    kind: item.kind,
    operation: item.operation,
    content: item.content,
    content_sha256: item.contentSha256,
    prev_hash: item.prevHash,
    hash: item.hash,
    schema_result: item.schemaResult,
    recorded_at: item.recordedAt.toISOString(),
  };
}

export function docketSubject(sources: CasefileSources): Record<string, string> {
  const s = sources.session;
  return { commerce_session_id: s.commerceSessionId, merchant_domain: s.merchantDomain, buyer_agent_id: s.buyerAgentId, evidence_head: chainHead(s) };
}

export function docketEntries(sources: CasefileSources): DocketEntry[] {
  const entries: DocketEntry[] = [recordEntry('checkout_session', sources.session.commerceSessionId, recordView(sources.sessionRow, MONEY_COLUMNS.session))];
  if (sources.mandateRow) entries.push(recordEntry('mandate', sources.session.mandateId, recordView(sources.mandateRow, MONEY_COLUMNS.mandate)));
  for (const item of sources.evidence) entries.push(recordEntry('evidence', item.evidenceId, evidenceView(item)));
  if (sources.purchaseRow) entries.push(recordEntry('purchase', String(sources.purchaseRow['deal_id']), recordView(sources.purchaseRow, MONEY_COLUMNS.purchase)));
  if (sources.receipt) entries.push(recordEntry('receipt', sources.receipt.receiptId, sources.receipt.content));
  return entries;
}

/** The signed docket of a session (`exchangeSeed`: the exchange's 32-byte ed25519 seed). */
export function commerceDocket(sources: CasefileSources, exchangeSeed: Uint8Array, now: Date): Docket {
  return signDocket({ subject: docketSubject(sources), entries: docketEntries(sources), createdAt: now }, exchangeSeed);
}
