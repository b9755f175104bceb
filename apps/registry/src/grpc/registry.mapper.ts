import type { registryV1 } from '@exchange/proto';
import type { AckInput, UploadMetadata } from '../service/artifacts.service';
import type { CasefileInput, CasefileSubject, SealedDocket } from '../service/casefiles.service';
import type { AttestationQuery, StoreExchangeObjectInput, StoreObjectInput } from '../service/objects.service';
import type { PageRequest } from '../domain/records';

// proto ⇄ domain for the gRPC layer: domain → proto is shared with the outbox events
// (events/registry.encode); proto → use-case inputs is here. Visibility stays the wire code: the
// use cases decode it among their other checks, in their order.
export { toProtoAck, toProtoArtifact, toProtoEnvelope, toProtoObject, toProtoReceipt } from '../events/registry.encode';

export function storeObjectInput(req: registryV1.StoreObjectRequest): StoreObjectInput {
  return {
    type: req.type,
    payloadJson: req.payloadJson,
    signerAgentId: req.signerAgentId,
    signature: req.signature,
    visibility: req.visibility,
    parties: req.parties,
    tags: req.tags,
  };
}

export function storeExchangeObjectInput(req: registryV1.StoreExchangeObjectRequest): StoreExchangeObjectInput {
  return { type: req.type, payloadJson: req.payloadJson, visibility: req.visibility, parties: req.parties, tags: req.tags };
}

export function pageRequest(page: { limit: number; cursor: string } | undefined): PageRequest | undefined {
  return page === undefined ? undefined : { limit: page.limit, cursor: page.cursor };
}

export function attestationQuery(req: { subjectRef?: string; signerAgentId?: string; from?: Date; to?: Date }): AttestationQuery {
  const q: AttestationQuery = {};
  if (req.subjectRef !== undefined) q.subjectRef = req.subjectRef;
  if (req.signerAgentId !== undefined) q.signerAgentId = req.signerAgentId;
  if (req.from !== undefined) q.from = req.from;
  if (req.to !== undefined) q.to = req.to;
  return q;
}

export function uploadMetadata(m: registryV1.ArtifactMetadata): UploadMetadata {
  const meta: UploadMetadata = { mediaType: m.mediaType, access: m.access, parties: m.parties };
  if (m.contractId !== undefined) meta.contractId = m.contractId;
  if (m.envelope !== undefined) {
    meta.envelope = { algorithm: m.envelope.algorithm, recipientKeyIds: m.envelope.recipientKeyIds };
    if (m.envelope.nonce !== undefined) meta.envelope.nonce = m.envelope.nonce;
  }
  return meta;
}

export function ackInput(req: registryV1.AckArtifactRequest): AckInput {
  return { artifactRef: req.artifactRef, agentId: req.agentId, signature: req.signature };
}

export function casefileSubject(s: registryV1.CasefileSubject | undefined): CasefileSubject | undefined {
  if (s === undefined) return undefined;
  const subject: CasefileSubject = { objectIds: s.objectIds, artifactRefs: s.artifactRefs };
  if (s.contractId !== undefined) subject.contractId = s.contractId;
  return subject;
}

export function casefileInput(input: registryV1.VerifyCasefileRequest['input']): CasefileInput | undefined {
  if (input === undefined) return undefined;
  return input.$case === 'docketJson' ? { kind: 'docket_json', json: input.value } : { kind: 'archive', bytes: input.value };
}

export function toProtoDocket(d: SealedDocket): registryV1.Docket {
  return { docketJson: d.docketJson, archive: d.archive };
}
