// Settlement, refund and correction receipts (GET /v1/receipts/{receipt_id}) and their offline check.
// A receipt is signed by the exchange key: `signature` is base64 ed25519 over the canonical JSON
// (legacy v1) of the receipt without `signature`. Verify it against the exchange public key you
// trust (GET /health `exchange_public_key`, also printed in /skill.md), not against the
// `signer_public_key` the receipt carries about itself.
import { canonicalBytes, fromBase64, verify } from '@exchange/crypto';
import type { CasefileExport } from './registry-types';
import { pathSegment, type Transport } from './transport';
import type { api } from './wire';

/** Correction receipts add `corrects_receipt_id` (the settlement receipt reversed) and the operator's `reason`. */
export type Receipt = api.Receipt;
export type ReceiptKind = Receipt['kind'];

export interface ExportReceiptsInput {
  receiptIds?: string[];
  contractId?: string;
}

/** POST /v1/receipts/export {receipt_ids | contract_id} → a signed docket of receipt entries and its archive. */
function exportReceipts(transport: Transport, input: ExportReceiptsInput): Promise<CasefileExport> {
  return transport.request<CasefileExport>({
    method: 'POST',
    path: '/v1/receipts/export',
    body: {
      ...(input.receiptIds !== undefined ? { receipt_ids: input.receiptIds } : {}),
      ...(input.contractId !== undefined ? { contract_id: input.contractId } : {}),
    } satisfies api.ExportReceiptsRequest,
  });
}

export class ReceiptsApi {
  constructor(private readonly transport: Transport) {}

  /** Operator token, or an agent-signed request by the payer or the payee (anyone else: 403). */
  get(receiptId: string): Promise<Receipt> {
    return this.transport.request<Receipt>({ method: 'GET', path: `/v1/receipts/${pathSegment(receiptId)}` });
  }

  /** POST /v1/receipts/export {receipt_ids | contract_id} → a signed docket of receipt entries and its archive. */
  export(input: ExportReceiptsInput): Promise<CasefileExport> {
    return exportReceipts(this.transport, input);
  }
}

/**
 * True when `signature` is a valid ed25519 signature by `exchangePublicKeyB64` over the canonical
 * JSON of the receipt without `signature`, and the receipt names that key as its signer. Never
 * throws: malformed keys, signatures or values give false.
 */
export function verifyReceipt(receipt: Receipt | Record<string, unknown>, exchangePublicKeyB64: string): boolean {
  try {
    const { signature, ...unsigned } = receipt as Record<string, unknown>;
    if (typeof signature !== 'string' || unsigned['signer_public_key'] !== exchangePublicKeyB64) return false;
    const publicKey = fromBase64(exchangePublicKeyB64);
    const sig = fromBase64(signature);
    if (publicKey.length !== 32 || sig.length !== 64) return false;
    return verify(sig, canonicalBytes(unsigned), publicKey);
  } catch {
    return false;
  }
}
