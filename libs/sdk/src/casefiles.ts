// Casefiles (`client.casefiles`): export a signed docket and archive for a contract, objects or
// artifacts, and ask the exchange for a verdict (`verifyCasefileArchive` verifies offline).
import type { Docket } from '@exchange/casefile';
import { toBase64 } from '@exchange/crypto';
import type { CasefileExport, CasefileVerdict } from './registry-types';
import type { Transport } from './transport';
import type { api } from './wire';

/** `archive_base64` of an export as bytes (a .tar.gz for `verifyCasefileArchive` or to save). */
export function casefileArchiveBytes(exported: CasefileExport): Buffer {
  return Buffer.from(exported.archive_base64, 'base64');
}

export interface CasefileSubjectInput {
  contractId?: string;
  objectIds?: string[];
  artifactRefs?: string[];
}

export interface ExportCasefileInput {
  /** At least one of contractId, objectIds, artifactRefs. */
  subject: CasefileSubjectInput;
  /** Put artifact bytes in the archive (default false). */
  includePayloads?: boolean;
}

export interface ServerVerifyOptions {
  /** Base64 exchange public key to verify against; default: that exchange's own key. */
  exchangePublicKey?: string;
}

export class CasefilesApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/casefiles/export (only the contract's parties or the operator for a contract). */
  export(input: ExportCasefileInput): Promise<CasefileExport> {
    const subject: api.ExportCasefileRequest['subject'] = {};
    if (input.subject.contractId !== undefined) subject.contract_id = input.subject.contractId;
    if (input.subject.objectIds !== undefined) subject.object_ids = input.subject.objectIds;
    if (input.subject.artifactRefs !== undefined) subject.artifact_refs = input.subject.artifactRefs;
    return this.transport.request<CasefileExport>({
      method: 'POST',
      path: '/v1/casefiles/export',
      body: { subject, ...(input.includePayloads !== undefined ? { include_payloads: input.includePayloads } : {}) } satisfies api.ExportCasefileRequest,
    });
  }

  /** POST /v1/casefiles/verify {docket}: the exchange's verdict (verify offline with `verifyCasefileArchive` to trust nobody). */
  verify(docket: Docket | Record<string, unknown>, options: ServerVerifyOptions = {}): Promise<CasefileVerdict> {
    return this.transport.request<CasefileVerdict>({
      method: 'POST',
      path: '/v1/casefiles/verify',
      body: { docket, ...(options.exchangePublicKey !== undefined ? { exchange_public_key: options.exchangePublicKey } : {}) },
    });
  }

  /** POST /v1/casefiles/verify {archive_base64}; an unreadable archive → 400 casefile_unreadable. */
  verifyArchive(archive: Uint8Array, options: ServerVerifyOptions = {}): Promise<CasefileVerdict> {
    return this.transport.request<CasefileVerdict>({
      method: 'POST',
      path: '/v1/casefiles/verify',
      body: {
        archive_base64: toBase64(archive),
        ...(options.exchangePublicKey !== undefined ? { exchange_public_key: options.exchangePublicKey } : {}),
      } satisfies api.VerifyCasefileRequest,
    });
  }
}
