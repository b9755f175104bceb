import { errors } from '@exchange/platform';
import type { Receipt } from '../domain/receipt';
import type { ReceiptQuery } from '../domain/wallet.commands';
import { walletErrors } from '../domain/wallet.errors';
import type { ReceiptsRepo } from './receipts.repo';

export interface ReceiptsDeps {
  repo: Pick<ReceiptsRepo, 'receipt' | 'latestReceiptOfContract'>;
}

/** Receipts of settlements, refunds and corrections, by id or by contract (written by settlement/). */
export class ReceiptsService {
  constructor(private readonly ctx: ReceiptsDeps) {}

  async getReceipt(req: ReceiptQuery): Promise<Receipt> {
    if (req.receiptId && req.contractId) throw walletErrors.validationFailed('give receipt_id or contract_id, not both');
    let receipt: Receipt | undefined;
    if (req.receiptId) receipt = await this.ctx.repo.receipt(req.receiptId);
    else if (req.contractId) receipt = await this.ctx.repo.latestReceiptOfContract(req.contractId);
    else throw walletErrors.validationFailed('receipt_id or contract_id is required', { field: 'receipt_id' });
    if (!receipt) throw errors.notFound('receipt', req.receiptId || `of contract ${req.contractId}`);
    return receipt;
  }
}
