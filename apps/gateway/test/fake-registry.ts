import { canonicalize, sha256Hex } from '@exchange/crypto';
import { callContextFromMetadata, DomainError, domainErrorStatus, errors, type CallContext } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';
import { CallLog, startProtoFake, testLogger, type ProtoFake } from '@exchange/testing';
import { type sendUnaryData, type ServerReadableStream, type ServerWritableStream } from '@grpc/grpc-js';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';

// An in-memory registry: `startProtoFake` (a real grpc-js server from the proto definition) with
// the methods the gateway calls, for its mapping, auth, streaming and error tests; the two
// streaming methods are grpc-js handlers of their own that record through the fake's CallLog. Access follows the contract's visibility rule (operator without an
// acting agent sees all; otherwise public, the signer/uploader and listed parties); the rest of
// the registry's rules (signatures, contracts, dockets) live in apps/registry and its suite.
// Failures come from failNext or from the few rules below.

const R = registryV1;
export const FAKE_MAX_BYTES = 25 * 1024 * 1024;

export interface FakeRegistry extends ProtoFake {
  objects: Map<string, registryV1.RegistryObject>;
  artifacts: Map<string, { artifact: registryV1.Artifact; bytes: Buffer }>;
  /** Uploads the registry saw end without a commit (cancelled by the gateway). */
  abortedUploads: number;
  /** Upload streams that ended without their commit message (stored nothing). */
  uncommittedUploads: number;
  /** The verdict VerifyCasefile answers next (else one derived from the input). */
  nextVerdict?: registryV1.VerifyCasefileResponse;
  /** When set, archives are verified by this (e.g. the real @exchange/casefile verifier). */
  archiveVerifier?: (archive: Buffer) => Promise<registryV1.VerifyCasefileResponse>;
}

function toStatus(err: unknown) {
  return domainErrorStatus(err instanceof DomainError ? err : errors.invalidArgument('internal', String(err)));
}

export async function startFakeRegistry(): Promise<FakeRegistry> {
  const log = new CallLog();
  const objects = new Map<string, registryV1.RegistryObject>();
  const artifacts = new Map<string, { artifact: registryV1.Artifact; bytes: Buffer }>();
  const receipts: registryV1.DeliveryReceipt[] = [];
  const acks = new Map<string, registryV1.ArtifactAck>();
  let seq = 0;
  const now = () => new Date(1_790_000_000_000 + ++seq * 1000);
  const fake = { abortedUploads: 0, uncommittedUploads: 0 } as FakeRegistry;

  const isOperator = (ctx: CallContext) => ctx.actor?.startsWith('operator:') === true && !ctx.agentId;
  const mayRead = (ctx: CallContext, visibility: registryV1.Visibility, owner: string, parties: string[]) => {
    if (isOperator(ctx) || visibility === R.Visibility.VISIBILITY_PUBLIC) return true;
    if (visibility === R.Visibility.VISIBILITY_OPERATOR || !ctx.agentId) return false;
    return ctx.agentId === owner || parties.includes(ctx.agentId);
  };
  const readArtifact = (ref: string, ctx: CallContext) => {
    const found = artifacts.get(ref);
    if (!found) throw errors.notFound('artifact', ref);
    const a = found.artifact;
    if (!mayRead(ctx, a.access, a.uploadedBy, a.parties)) throw errors.permissionDenied('access_denied', `no access to artifact ${ref}`);
    return found;
  };

  const handlers = {
    async storeObject(req: registryV1.StoreObjectRequest) {
      if (req.signature === 'bad') throw errors.invalidArgument('object_signature_invalid', 'the signature does not verify');
      if (req.type === 'party_alias_token' || req.type === 'identity_reveal') throw errors.permissionDenied('reserved_type', `type ${req.type} is reserved`);
      const objectId = `sha256:${sha256Hex(canonicalize({ type: req.type, payload: JSON.parse(req.payloadJson) as unknown, signer_agent_id: req.signerAgentId }))}`;
      const existing = objects.get(objectId);
      if (existing) return { object: existing, created: false };
      const object: registryV1.RegistryObject = {
        objectId,
        type: req.type,
        payloadJson: req.payloadJson,
        signerAgentId: req.signerAgentId,
        signature: req.signature,
        signerPublicKey: 'fake-public-key',
        visibility: req.visibility,
        parties: req.parties,
        tags: req.tags,
        createdAt: now(),
      };
      objects.set(objectId, object);
      return { object, created: true };
    },
    async getObject(req: registryV1.GetObjectRequest, ctx: CallContext) {
      const object = objects.get(req.objectId);
      if (!object || (req.type !== undefined && object.type !== req.type)) throw errors.notFound('object', req.objectId);
      if (!mayRead(ctx, object.visibility, object.signerAgentId, object.parties)) throw errors.permissionDenied('access_denied', 'no access to this object');
      return { object };
    },
    async listObjects(req: registryV1.ListObjectsRequest, ctx: CallContext) {
      const rows = [...objects.values()]
        .filter((o) => (req.type === undefined || o.type === req.type) && (req.tag === undefined || o.tags.includes(req.tag)))
        .filter((o) => mayRead(ctx, o.visibility, o.signerAgentId, o.parties));
      return { objects: rows, page: { nextCursor: '' } };
    },
    async storeExchangeObject(req: registryV1.StoreExchangeObjectRequest) {
      const objectId = `sha256:${sha256Hex(canonicalize({ type: req.type, payload: JSON.parse(req.payloadJson) as unknown, signer_agent_id: 'exchange' }))}`;
      const object: registryV1.RegistryObject = {
        objectId, type: req.type, payloadJson: req.payloadJson, signerAgentId: 'exchange', signature: 'exchange-signature',
        signerPublicKey: 'exchange-public-key', visibility: req.visibility, parties: req.parties, tags: req.tags, createdAt: now(),
      };
      const created = !objects.has(objectId);
      if (created) objects.set(objectId, object);
      return { object: objects.get(objectId), created };
    },
    async getArtifact(req: registryV1.GetArtifactRequest, ctx: CallContext) {
      return { artifact: readArtifact(req.artifactRef, ctx).artifact };
    },
    async getArtifactEnvelope(req: registryV1.GetArtifactEnvelopeRequest, ctx: CallContext) {
      const { artifact } = readArtifact(req.artifactRef, ctx);
      if (!artifact.envelope) throw errors.notFound('envelope', req.artifactRef);
      return { artifactRef: artifact.artifactRef, envelope: artifact.envelope };
    },
    async ackArtifact(req: registryV1.AckArtifactRequest, ctx: CallContext) {
      readArtifact(req.artifactRef, { ...ctx, agentId: req.agentId } as CallContext);
      const key = `${req.artifactRef}|${req.agentId}`;
      const existing = acks.get(key);
      if (existing) return { ack: existing, created: false };
      const ack = { ackId: `ack_fake-${++seq}`, artifactRef: req.artifactRef, agentId: req.agentId, signature: req.signature, createdAt: now() };
      acks.set(key, ack);
      return { ack, created: true };
    },
    async listDeliveryReceipts(req: registryV1.ListDeliveryReceiptsRequest, ctx: CallContext) {
      readArtifact(req.artifactRef, ctx);
      return { receipts: receipts.filter((r) => r.artifactRef === req.artifactRef), page: { nextCursor: '' } };
    },
    async takedownArtifact(req: registryV1.TakedownArtifactRequest) {
      const found = artifacts.get(req.artifactRef);
      if (!found) throw errors.notFound('artifact', req.artifactRef);
      if (found.artifact.status === R.ArtifactStatus.ARTIFACT_STATUS_REMOVED) throw errors.invalidState('artifact', 'removed', 'removed');
      found.artifact = { ...found.artifact, status: R.ArtifactStatus.ARTIFACT_STATUS_REMOVED, removedReason: req.reason, updatedAt: now() };
      return { artifact: found.artifact };
    },
    async reinstateArtifact(req: registryV1.ReinstateArtifactRequest) {
      const found = artifacts.get(req.artifactRef);
      if (!found) throw errors.notFound('artifact', req.artifactRef);
      if (found.artifact.status === R.ArtifactStatus.ARTIFACT_STATUS_ACTIVE) throw errors.invalidState('artifact', 'active', 'active');
      found.artifact = { ...found.artifact, status: R.ArtifactStatus.ARTIFACT_STATUS_ACTIVE, removedReason: undefined, updatedAt: now() };
      return { artifact: found.artifact };
    },
    async queryAttestations(_req: registryV1.QueryAttestationsRequest, ctx: CallContext) {
      const rows = [...objects.values()].filter((o) => o.type === 'attestation' && mayRead(ctx, o.visibility, o.signerAgentId, o.parties));
      return { attestations: rows, page: { nextCursor: '' } };
    },
    async exportAttestations() {
      return { docket: fakeDocket('attestations') };
    },
    async exportReceipts() {
      return { docket: fakeDocket('receipts') };
    },
    async exportCasefile() {
      return { docket: fakeDocket('casefile') };
    },
    async verifyCasefile(req: registryV1.VerifyCasefileRequest) {
      if (fake.nextVerdict) {
        const verdict = fake.nextVerdict;
        fake.nextVerdict = undefined;
        return verdict;
      }
      if (req.input?.$case === 'archive' && fake.archiveVerifier) return fake.archiveVerifier(req.input.value);
      let text: string;
      if (req.input?.$case === 'archive') {
        try {
          text = gunzipSync(req.input.value).toString('utf8');
        } catch {
          throw errors.invalidArgument('casefile_unreadable', 'the archive is not gzip');
        }
      } else text = req.input?.value ?? '';
      const valid = !text.includes('tampered');
      return {
        valid,
        docketId: 'dkt_fake',
        checks: [
          { ref: 'docket', ok: true },
          { ref: 'signature', ok: true },
          { ref: `sha256:${'ab'.repeat(32)}`, ok: valid, reason: valid ? undefined : 'sha256 mismatch' },
        ],
      };
    },
  };

  function fakeDocket(subject: string): registryV1.Docket {
    const docket = { docket_id: 'dkt_fake', subject: { kind: subject }, entries: [], created_at: '2026-11-21T18:00:00.000Z', exchange_pubkey: 'k', signature: 's' };
    return { docketJson: canonicalize(docket), archive: Buffer.from('fake archive') };
  }

  const uploadArtifact = (call: ServerReadableStream<registryV1.UploadArtifactRequest, registryV1.UploadArtifactResponse>, callback: sendUnaryData<registryV1.UploadArtifactResponse>) => {
    const ctx = callContextFromMetadata(call.metadata, testLogger);
    let metadata: registryV1.ArtifactMetadata | undefined;
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    // Like the registry: staged until the final `commit`; a stream that ends without it stores nothing.
    let commit: registryV1.UploadCommit | undefined;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      callback(toStatus(err) as never);
    };
    call.on('data', (message: registryV1.UploadArtifactRequest) => {
      if (failed) return;
      if (message.part?.$case === 'metadata') {
        metadata = message.part.value;
        try {
          log.record('uploadArtifact', metadata, call.metadata);
        } catch (err) {
          fail(err);
        }
        return;
      }
      if (commit) return; // nothing after the commit is read
      if (message.part?.$case === 'commit') {
        commit = message.part.value;
        return;
      }
      if (message.part?.$case === 'chunk') {
        size += message.part.value.length;
        if (size > FAKE_MAX_BYTES) return fail(errors.resourceExhausted('payload_too_large', 'artifact larger than 25 MiB'));
        hash.update(message.part.value);
        chunks.push(Buffer.from(message.part.value));
      }
    });
    call.on('cancelled', () => {
      fake.abortedUploads++;
    });
    call.on('end', () => {
      if (failed) return;
      if (!metadata) return fail(errors.invalidArgument('validation_failed', 'metadata first'));
      if (!commit) {
        fake.uncommittedUploads++;
        return fail(errors.aborted('upload_not_committed', 'ended without a commit'));
      }
      if (size === 0) return fail(errors.invalidArgument('empty_artifact', 'no content'));
      const hex = hash.digest('hex');
      if (commit.contentSha256 !== '' && commit.contentSha256 !== hex) return fail(errors.invalidArgument('content_hash_mismatch', 'commit hash differs'));
      const ref = `sha256:${hex}`;
      const existing = artifacts.get(ref);
      if (existing) return callback(null, { artifact: existing.artifact, created: false });
      const at = now();
      const artifact: registryV1.Artifact = {
        artifactRef: ref,
        sizeBytes: String(size),
        mediaType: metadata.mediaType,
        contractId: metadata.contractId,
        access: metadata.access,
        parties: metadata.parties,
        envelope: metadata.envelope,
        status: R.ArtifactStatus.ARTIFACT_STATUS_ACTIVE,
        removedReason: undefined,
        uploadedBy: ctx.agentId ?? '',
        createdAt: at,
        updatedAt: at,
      };
      artifacts.set(ref, { artifact, bytes: Buffer.concat(chunks) });
      callback(null, { artifact, created: true });
    });
  };

  const downloadArtifact = (call: ServerWritableStream<registryV1.DownloadArtifactRequest, registryV1.DownloadArtifactResponse>) => {
    const ctx = callContextFromMetadata(call.metadata, testLogger);
    try {
      log.record('downloadArtifact', call.request, call.metadata);
      const found = readArtifact(call.request.artifactRef, ctx);
      if (found.artifact.status === R.ArtifactStatus.ARTIFACT_STATUS_REMOVED) {
        throw errors.failedPrecondition('artifact_removed', 'artifact removed', { reason: found.artifact.removedReason ?? '' });
      }
      call.write({ part: { $case: 'artifact', value: found.artifact } });
      for (let i = 0; i < found.bytes.length; i += 64 * 1024) call.write({ part: { $case: 'chunk', value: found.bytes.subarray(i, i + 64 * 1024) } });
      if (ctx.agentId) {
        receipts.push({
          deliveryReceiptId: `dlv_fake-${++seq}`, artifactRef: found.artifact.artifactRef, agentId: ctx.agentId, sizeBytes: String(found.bytes.length),
          deliveredAt: now(), signature: 'exchange-signature', signerPublicKey: 'exchange-public-key',
        });
      }
      call.end();
    } catch (err) {
      call.emit('error', toStatus(err));
    }
  };

  const proto = await startProtoFake(R.RegistryServiceService, { ...handlers, uploadArtifact, downloadArtifact }, { log });
  return Object.assign(fake, proto, { objects, artifacts });
}
