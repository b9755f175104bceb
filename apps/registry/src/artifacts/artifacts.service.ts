import type { Readable } from 'node:stream';
import { canonicalize, signCanonical } from '@exchange/crypto';
import { decodeCursor, encodeCursor, errors, newId, resolveLimit, uuidv7 } from '@exchange/platform';
import { actingAgent, requireOperator, viewerOf, type Caller } from '../domain/caller';
import { artifactRefOf, hexOfRef, isContentRef } from '../domain/ids';
import { validateMediaType, validateParties, validateReason, visibilityFrom } from '../domain/validation';
import type { ArtifactAck, ArtifactEnvelope, ArtifactStatus, ArtifactUpload, DeliveryReceipt, Page, PageRequest } from '../domain/records';
import { withTransaction } from '@exchange/db';
import type { RegistryContext } from '../service/context';
import type { ArtifactAccess } from './artifact-access.service';
import { artifactAcked, artifactChanged, artifactDelivered } from './artifacts.events';
import { artifactsRepo } from './artifacts.repo';
import { validateEnvelope, type EnvelopeInput } from './envelope';
import { ackPayload, deliveryReceiptPayload } from './receipts';
import { chunksUntilCommit, type UploadPart } from './upload-parts';
import { visibleUploads } from './uploads';

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

/** An upload's metadata message; `access` is the wire code (0 unspecified → parties). */
export interface UploadMetadata {
  mediaType: string;
  contractId?: string;
  access: number;
  parties: string[];
  envelope?: EnvelopeInput;
}

export interface AckInput {
  artifactRef: string;
  /** "" → the acting agent. */
  agentId: string;
  signature: string;
}

/** What the artifact use cases use of the start-up context. */
export type ArtifactsDeps = Pick<
  RegistryContext,
  'pool' | 'clock' | 'notify' | 'store' | 'maxArtifactBytes' | 'signingKey' | 'exchangePublicKey' | 'agents' | 'contracts'
>;

export class ArtifactsService {
  constructor(
    private readonly ctx: ArtifactsDeps,
    private readonly access: ArtifactAccess,
  ) {}

  /** GetArtifact: the upload a read of `ref` answers this caller with (ArtifactAccess.readable). */
  readable(ref: string, caller: Caller): Promise<ArtifactUpload> {
    return this.access.readable(ref, caller);
  }

  /**
   * Stages the parts' chunks and, only when they end with a commit, makes the bytes visible and
   * writes the row (bytes first: a row never points at missing bytes). Anything else — a refused
   * check, a cancelled or cut-off stream, no commit — discards the staged part.
   */
  async upload(meta: UploadMetadata, parts: AsyncIterable<UploadPart>, caller: Caller): Promise<{ artifact: ArtifactUpload; created: boolean }> {
    const viewer = viewerOf(caller);
    if (viewer.kind === 'anonymous') throw errors.permissionDenied('access_denied', 'uploads need an operator or an acting agent');
    const uploader = actingAgent(caller) ?? '';
    const mediaType = validateMediaType(meta.mediaType);
    const access = visibilityFrom(meta.access, 'parties');
    const parties = validateParties(meta.parties);
    const envelope = validateEnvelope(meta.envelope);
    const contractId = meta.contractId !== undefined && meta.contractId !== '' ? meta.contractId : null;
    if (contractId !== null) {
      const c = await this.ctx.contracts.parties(contractId);
      if (viewer.kind === 'agent' && viewer.agentId !== c.buyerId && viewer.agentId !== c.sellerId) {
        throw errors.permissionDenied('not_contract_party', `${viewer.agentId} is not a party of contract ${contractId}`, { contract_id: contractId });
      }
    }
    const body = chunksUntilCommit(parts);
    const staged = await this.ctx.store.stage(body.chunks, { maxBytes: this.ctx.maxArtifactBytes });
    try {
      const expected = body.commit()?.contentSha256 ?? '';
      if (expected !== '' && expected !== staged.sha256) {
        throw errors.invalidArgument('content_hash_mismatch', 'the staged bytes do not hash to the commit\'s content_sha256', { field: 'commit.content_sha256' });
      }
      if (staged.size === 0) throw invalid('content', 'artifact content is empty');
      await staged.commit();
    } finally {
      await staged.discard();
    }
    const ref = artifactRefOf(staged.sha256);
    const now = this.ctx.clock();
    // Per upload: another uploader's bytes never lend it their metadata; the same uploader sending
    // the same bytes for the same contract (or none) again gets its upload back (created false).
    const result = await withTransaction(this.ctx.pool, async (client) => {
      const r = await artifactsRepo.insertUpload(client, {
        // Internal (never in the API), so not one of platform's public id prefixes.
        uploadId: `upl_${uuidv7()}`,
        artifactRef: ref,
        sizeBytes: staged.size,
        mediaType,
        contractId,
        access,
        parties,
        envelope,
        uploadedBy: uploader,
        createdAt: now,
        updatedAt: now,
      });
      if (r.created) await artifactChanged(client, 'uploaded', r.row, caller);
      return r;
    });
    if (result.created) this.ctx.notify();
    return { artifact: result.row, created: result.created };
  }

  /**
   * Opens a download: the metadata, the bytes, and `delivered()` to call once every byte went out
   * (writes the exchange-signed delivery receipt for an acting agent; nothing for the operator).
   */
  async openDownload(ref: string, caller: Caller): Promise<{ artifact: ArtifactUpload; bytes: Readable; delivered: () => Promise<void> }> {
    const row = await this.access.readable(ref, caller);
    if (row.status === 'removed') {
      throw errors.failedPrecondition('artifact_removed', `artifact ${ref} was removed: ${row.removedReason ?? ''}`, {
        reason: row.removedReason,
      });
    }
    const bytes = await this.ctx.store.get(hexOfRef(ref));
    const agent = actingAgent(caller);
    const delivered = async () => {
      if (agent === null) return;
      const fields = {
        delivery_receipt_id: newId('dlv'),
        artifact_ref: ref,
        agent_id: agent,
        size_bytes: row.sizeBytes,
        delivered_at: this.ctx.clock().toISOString(),
      };
      const receipt: DeliveryReceipt = {
        deliveryReceiptId: fields.delivery_receipt_id,
        artifactRef: ref,
        uploadId: row.uploadId,
        agentId: agent,
        sizeBytes: row.sizeBytes,
        deliveredAt: new Date(fields.delivered_at),
        signature: signCanonical(deliveryReceiptPayload(fields), this.ctx.signingKey),
        signerPublicKey: this.ctx.exchangePublicKey,
      };
      await withTransaction(this.ctx.pool, async (client) => {
        await artifactsRepo.insertReceipt(client, receipt);
        await artifactDelivered(client, receipt, caller);
      });
      this.ctx.notify();
    };
    return { artifact: row, bytes, delivered };
  }

  /** The upload's envelope as the caller reads it: 404 envelope_not_found when it has none. */
  async envelope(ref: string, caller: Caller): Promise<{ artifactRef: string; envelope: ArtifactEnvelope }> {
    const row = await this.access.readable(ref, caller);
    if (row.envelope === null) throw errors.notFound('envelope', ref);
    return { artifactRef: row.artifactRef, envelope: row.envelope };
  }

  async ack(req: AckInput, caller: Caller): Promise<{ ack: ArtifactAck; created: boolean }> {
    const acting = actingAgent(caller);
    const agentId = req.agentId !== '' ? req.agentId : acting;
    if (agentId === null) throw invalid('agent_id', 'agent_id is required');
    if (acting !== null && acting !== agentId) {
      throw errors.permissionDenied('acting_agent_mismatch', `the acting agent ${acting} is not agent_id ${agentId}`, { field: 'agent_id', acting_agent: acting });
    }
    if (req.signature === '') throw invalid('signature', 'signature is required');
    // Recorded against the upload this agent reads (the one GetArtifact answers it with).
    const [row] = await this.access.visible(await this.access.uploadsOf(req.artifactRef), { actor: `agent:${agentId}`, agentId });
    if (row === undefined) throw errors.permissionDenied('access_denied', `${agentId} may not read artifact ${req.artifactRef}`);
    await this.ctx.agents.active(agentId);
    const message = new TextEncoder().encode(canonicalize(ackPayload(row.artifactRef, agentId)));
    if ((await this.ctx.agents.verifySignature(agentId, message, req.signature)) === null) {
      throw errors.invalidArgument('ack_signature_invalid', 'signature does not verify over canonical({artifact_ref, agent_id})', { agent_id: agentId });
    }
    const result = await withTransaction(this.ctx.pool, async (client) => {
      const r = await artifactsRepo.insertAck(client, {
        ackId: newId('ack'),
        artifactRef: row.artifactRef,
        uploadId: row.uploadId,
        agentId,
        signature: req.signature,
        createdAt: this.ctx.clock(),
      });
      if (r.created) await artifactAcked(client, r.row, caller);
      return r;
    });
    if (result.created) this.ctx.notify();
    return { ack: result.row, created: result.created };
  }

  async listReceipts(ref: string, page: PageRequest | undefined, caller: Caller): Promise<Page<DeliveryReceipt>> {
    // Receipts of the uploads the caller is a party of (all of them for the operator): another
    // uploader's downloaders are its own business.
    const uploads = await this.access.uploadsOf(ref);
    const own: string[] = [];
    for (const u of uploads) if (await this.access.seesEvidenceOf(u, caller)) own.push(u.uploadId);
    if (own.length === 0) throw errors.permissionDenied('access_denied', `you may not read the delivery receipts of ${ref}`);
    const limit = resolveLimit(page?.limit);
    if (page?.cursor) decodeCursor(page.cursor);
    const rows = await artifactsRepo.listReceipts(this.ctx.pool, own, page?.cursor || undefined, limit + 1);
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    const nextCursor = rows.length > limit ? encodeCursor({ createdAt: last.deliveredAt, id: last.deliveryReceiptId }) : '';
    return { items: data, nextCursor };
  }

  /** Removes the bytes for every upload of them; answers with the operator's view of the artifact. */
  takedown(ref: string, reason: string, caller: Caller): Promise<ArtifactUpload> {
    return this.changeStatus(ref, reason, caller, 'removed');
  }

  reinstate(ref: string, reason: string, caller: Caller): Promise<ArtifactUpload> {
    return this.changeStatus(ref, reason, caller, 'active');
  }

  private async changeStatus(ref: string, reasonIn: string, caller: Caller, wanted: ArtifactStatus): Promise<ArtifactUpload> {
    const operator = requireOperator(caller);
    const reason = validateReason(reasonIn);
    if (!isContentRef(ref)) throw errors.notFound('artifact', ref);
    const now = this.ctx.clock();
    // The content's state, for every upload of it; answered with the operator's view (its own upload, else the oldest).
    const updated = await withTransaction(this.ctx.pool, async (client) => {
      const blob = await artifactsRepo.blob(client, ref, true);
      if (!blob) throw errors.notFound('artifact', ref);
      if (blob.status === wanted) throw errors.invalidState('artifact', blob.status, wanted);
      await artifactsRepo.setStatus(client, ref, wanted, wanted === 'removed' ? reason : null, now);
      await artifactsRepo.audit(client, { id: newId('aud'), action: wanted === 'removed' ? 'takedown' : 'reinstate', artifactRef: ref, operator, reason, at: now });
      const [next] = visibleUploads({ kind: 'operator', name: operator }, await artifactsRepo.uploadsOf(client, ref));
      await artifactChanged(client, wanted === 'removed' ? 'removed' : 'reinstated', next, caller, reason);
      return next;
    });
    this.ctx.notify();
    return updated;
  }
}
