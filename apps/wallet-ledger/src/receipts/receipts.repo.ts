import type pg from 'pg';
import type { Receipt, ReceiptKind } from '../domain/receipt';
import { big, date, str, strOrNull, type Row } from '../data/rows';

export function receiptFromRow(r: Row): Receipt {
  return {
    receiptId: str(r['receipt_id']),
    kind: r['kind'] as ReceiptKind,
    contractId: str(r['contract_id']),
    holdId: str(r['hold_id']),
    payer: str(r['payer']),
    payee: str(r['payee']),
    amount: big(r['amount']),
    fee: big(r['fee']),
    refundedAmount: big(r['refunded_amount']),
    currency: str(r['currency']),
    journalEntryIds: (r['journal_entry_ids'] as string[] | null) ?? [],
    settledAt: date(r['settled_at']),
    signerPublicKey: str(r['signer_public_key']),
    signature: str(r['signature']),
    correctsReceiptId: strOrNull(r['corrects_receipt_id'] ?? null),
    reason: strOrNull(r['reason'] ?? null),
    refundsReceiptId: strOrNull(r['refunds_receipt_id'] ?? null),
    reference: strOrNull(r['reference'] ?? null),
  };
}

/** Reads of receipts (written with their settlement through wallet_apply: data/ledger.writer.ts). */
export class ReceiptsRepo {
  constructor(private readonly pool: pg.Pool) {}

  async receipt(receiptId: string): Promise<Receipt | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM receipts WHERE receipt_id = $1', [receiptId]);
    return rows[0] ? receiptFromRow(rows[0]) : undefined;
  }

  /** The correction receipt of a settlement receipt, if it was corrected (at most one). */
  async correctionOf(receiptId: string): Promise<Receipt | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM receipts WHERE corrects_receipt_id = $1', [receiptId]);
    return rows[0] ? receiptFromRow(rows[0]) : undefined;
  }

  async latestReceiptOfContract(contractId: string): Promise<Receipt | undefined> {
    const { rows } = await this.pool.query(
      'SELECT * FROM receipts WHERE contract_id = $1 ORDER BY settled_at DESC, receipt_id DESC LIMIT 1',
      [contractId],
    );
    return rows[0] ? receiptFromRow(rows[0]) : undefined;
  }
}
