// The casefile docket (common5.md "Casefiles"): a list of entries, each naming a record or an
// artifact by ref with the sha256 that pins its bytes, signed by the exchange key.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Entries that carry the record's JSON (`content`), hashed as canonical JSON. */
export const RECORD_KINDS = [
  'contract',
  'offer',
  'result',
  'verification_report',
  'dispute',
  'receipt',
  'object',
  'attestation',
  'delivery_receipt',
  'ack',
  // Commerce (apps/commerce): a checkout session, its mandate, each hash-chained evidence item and
  // the purchase; the wallet's receipt of the purchase is a `receipt`.
  'checkout_session',
  'mandate',
  'evidence',
  'purchase',
  // Workflows (apps/workflows): a run (with its stages) and each of its tasks; the shard contracts'
  // own entries (contract, offer, result…) follow as the registry exports them.
  'workflow_run',
  'workflow_task',
  // Gateway proxy (apps/wallet-ledger): each recorded proxy call of a run.
  'proxy_call',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
/** Entries that name artifact bytes (`ref` = artifact_ref, `sha256` = hex of the bytes). */
export type ArtifactKind = 'artifact';
export type EntryKind = RecordKind | ArtifactKind;

export interface RecordEntry {
  kind: RecordKind;
  ref: string;
  /** Lowercase hex sha256 of canonicalize(content). */
  sha256: string;
  content: JsonValue;
}

export interface ArtifactEntry {
  kind: ArtifactKind;
  /** `sha256:<hex>` */
  ref: string;
  /** Lowercase hex sha256 of the bytes (equals the hex part of `ref`). */
  sha256: string;
  media_type: string;
  size_bytes: number;
}

export type DocketEntry = RecordEntry | ArtifactEntry;

/** What the docket is about, e.g. `{contract_id}`, `{object_ids}`, `{receipt_ids}` or attestation filters. */
export type DocketSubject = { [key: string]: JsonValue };

export interface UnsignedDocket {
  /** `dkt_<uuidv7>` */
  docket_id: string;
  subject: DocketSubject;
  entries: DocketEntry[];
  /** ISO 8601 UTC */
  created_at: string;
  /** Base64 ed25519 public key of the exchange that signed it. */
  exchange_pubkey: string;
}

export interface Docket extends UnsignedDocket {
  /** Base64 ed25519 (exchange key) over canonicalize(docket without `signature`). */
  signature: string;
}

/** One verification check: an entry's ref, `docket` (shape), `signature`, or an archive file name. */
export interface CasefileCheck {
  ref: string;
  ok: boolean;
  reason?: string;
}

export interface VerifyResult {
  valid: boolean;
  /** The docket's id as read (empty string when it has none). */
  docket_id: string;
  checks: CasefileCheck[];
}
