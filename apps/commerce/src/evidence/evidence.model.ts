import type { SchemaResult } from '../domain/merchant.ports';

export type EvidenceKind = 'merchant_request' | 'merchant_response' | 'merchant_error' | 'order_webhook' | 'approval' | 'mandate_check' | 'intent';

/** What a caller records (the chain fields are computed by the repository). */
export interface EvidenceInput {
  kind: EvidenceKind;
  operation: string;
  content: Record<string, unknown>;
  schemaResult: SchemaResult;
}

export interface EvidenceRecord extends EvidenceInput {
  evidenceId: string;
  commerceSessionId: string;
  seq: number;
  contentSha256: string;
  prevHash: string;
  hash: string;
  recordedAt: Date;
}
