import type { RecordKind } from '@exchange/casefile';

// What a casefile takes from market and wallet-ledger, already in its public JSON shape
// (`publicJson`): the clients read the records, the casefile use cases decide what goes in.

/** A docket record entry before hashing: `content` is the record as the public API shows it. */
export interface CasefileRecord {
  kind: RecordKind;
  ref: string;
  content: unknown;
}

/** A market contract: the facts access is decided on, and the record itself. */
export interface MarketContract {
  contractId: string;
  buyerId: string;
  /** The awarded seller, when awarded. */
  sellerId: string | null;
  /** The settlement receipt, once settled. */
  receiptId: string | null;
  record: CasefileRecord;
}

/** A wallet receipt: payer and payee decide access. */
export interface WalletReceipt {
  receiptId: string;
  payer: string;
  payee: string;
  record: CasefileRecord;
}

/** What hangs off a contract in market and wallet-ledger, in docket order. */
export interface ContractRecords {
  /** Offers, results, verification reports, disputes, then receipts. */
  records: CasefileRecord[];
  /** Artifact refs the contract's results name. */
  resultArtifactRefs: string[];
}

/** Market and wallet-ledger as casefiles read them (implemented by clients/casefile-sources). */
export interface CasefileSources {
  /** 404 contract_not_found, 503 market_unavailable. */
  contract(contractId: string): Promise<MarketContract>;
  contractRecords(contract: MarketContract): Promise<ContractRecords>;
  /** The receipts of the contract and of its disputes, oldest first. */
  contractReceipts(contract: MarketContract): Promise<WalletReceipt[]>;
  /** null when wallet-ledger does not know it; 503 wallet_unavailable. */
  receipt(receiptId: string): Promise<WalletReceipt | null>;
}
