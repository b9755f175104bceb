import type { PurchaseRecord } from '../checkout/session.model';

// What transparency reads of the tables other areas write (purchases, cases); intents are
// read with the intents area's own repository.

/** A purchase with what it would have cost before discounts. */
export interface PurchaseFacts extends PurchaseRecord {
  listAmount: bigint;
  refunded: bigint;
}

/** Evidence without its content: what a transparency record shows of the chain. */
export interface EvidenceRefRecord {
  evidenceId: string;
  seq: number;
  kind: string;
  operation: string;
  contentSha256: string;
  hash: string;
  recordedAt: Date;
}
