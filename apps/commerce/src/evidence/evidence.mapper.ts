import type { VerifyResult } from '@exchange/casefile';
import type { commerceV1 } from '@exchange/proto';
import type { ArtifactPage } from './artifact-page';
import type { EvidenceRecord } from './evidence.model';

export function toProtoEvidenceItem(item: EvidenceRecord): commerceV1.EvidenceItem {
  return {
    evidenceId: item.evidenceId,
    commerceSessionId: item.commerceSessionId,
    seq: item.seq,
    kind: item.kind,
    operation: item.operation,
    contentJson: JSON.stringify(item.content),
    contentSha256: item.contentSha256,
    prevHash: item.prevHash,
    hash: item.hash,
    schemaResult: item.schemaResult,
    recordedAt: item.recordedAt,
  };
}

export function toListArtifactsResponse(page: ArtifactPage): commerceV1.ListArtifactsResponse {
  return { items: page.items.map(toProtoEvidenceItem), page: { nextCursor: page.nextCursor }, chainValid: page.chainValid };
}

export function toVerifyCasefileResponse(result: VerifyResult): commerceV1.VerifyCasefileResponse {
  return {
    valid: result.valid,
    docketId: result.docket_id,
    checks: result.checks.map((c) => ({ ref: c.ref, ok: c.ok, ...(c.reason !== undefined ? { reason: c.reason } : {}) })),
  };
}
