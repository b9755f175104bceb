import type { Readable } from 'node:stream';
import { signCanonical } from '@exchange/crypto';
import { decodeCursor, encodeCursor, errors, newId, resolveLimit, uuidv7 } from '@exchange/platform';
import { actingAgent, requireOperator, viewerOf, type Caller, type Viewer } from '../domain/caller';
import { artifactRefOf, hexOfRef, isContentRef } from '../domain/ids';
import { ackPayload, deliveryReceiptPayload } from '../domain/receipts';
import { visibleUploads } from '../domain/uploads';
import { validateMediaType, validateParties, validateReason, visibilityFrom } from '../domain/validation';
import { canonicalize } from '@exchange/crypto';
import { withTransaction } from '../data/db';
import type { ArtifactAck, ArtifactEnvelope, ArtifactStatus, ArtifactUpload, DeliveryReceipt, Page, PageRequest } from '../domain/records';
import { artifactsRepo } from '../data/artifacts.repo';
import type { RegistryContext } from './context';
import { artifactAcked, artifactChanged, artifactDelivered } from '../events/registry.events';
import { chunksUntilCommit, type UploadPart } from './upload-parts';

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

/** An upload's metadata message; `access` is the wire code (0 unspecified → parties). */
export interface UploadMetadata {
  mediaType: string;
  contractId?: string;
  access: number;
  parties: string[];
  envelope?: { algorithm: string; recipientKeyIds: string[]; nonce?: string };
}

export interface AckInput {
  artifactRef: string;
  /** "" → the acting agent. */
  agentId: string;
  signature: string;
}

export class ArtifactsService {
  constructor(private readonly ctx: RegistryContext) {}

  /** Everyone who counts as a party of the upload: uploader, listed parties, contract's buyer and seller. */
  async partiesOf(a: ArtifactUpload): Promise<string[]> {
    const parties = [a.uploadedBy, ...a.parties].filter((p) => p !== '');
    if (a.contractId !== null) {
      const c = await this.ctx.contracts.parties(a.contractId);
      parties.push(c.buyerId);
      if (c.sellerId) parties.push(c.sellerId);
    }
    return parties;
  }

  /** What decides the viewer's standing on the upload; the contract's parties only when they can change it. */
  private async standingParties(row: ArtifactUpload, viewer: Viewer): Promise<string[]> {
    const direct = [row.uploadedBy, ...row.parties].filter((p) => p !== '');
    if (viewer.kind !== 'agent' || direct.includes(viewer.agentId) || row.contractId === null) return direct;
    return this.partiesOf(row);
  }

  /** The uploads among `rows` the caller may read, best first (domain/uploads.ts). */
  async visible(rows: ArtifactUpload[], caller: Caller): Promise<ArtifactUpload[]> {
    const viewer = viewerOf(caller);
    const facts = await Promise.all(
      rows.map(async (row) => ({ row, uploadedBy: row.uploadedBy, access: row.access, parties: await this.standingParties(row, viewer) })),
    );
    return visibleUploads(viewer, facts).map((f) => f.row);
  }

  /** Every upload of the bytes, oldest first (404 artifact_not_found when nobody uploaded them). */
  private async uploadsOf(ref: string): Promise<ArtifactUpload[]> {
    if (!isContentRef(ref)) throw errors.notFound('artifact', ref);
    const rows = await artifactsRepo.uploadsOf(this.ctx.pool, ref);
    if (rows.length === 0) throw errors.notFound('artifact', ref);
    return rows;
  }

  /**
   * The upload of `ref` a read answers with, for this caller: its own upload first, else one it is
   * a party of, else a public one (the operator: its own, else the oldest). 404 artifact_not_found
   * when nobody uploaded the bytes, 403 access_denied when the caller may read no upload of them.
   */
  async readable(ref: string, caller: Caller): Promise<ArtifactUpload> {
    const [best] = await this.visible(await this.uploadsOf(ref), caller);
    if (best === undefined) throw errors.permissionDenied('access_denied', `you may not read artifact ${ref}`);
    return best;
  }

  /** Whether the caller is the operator or a party (uploader, listed, contract's) of the upload: it sees its receipts and acks. */
  async seesEvidenceOf(row: ArtifactUpload, caller: Caller): Promise<boolean> {
    const viewer = viewerOf(caller);
    if (viewer.kind === 'operator') return true;
    return viewer.kind === 'agent' && (await this.partiesOf(row)).includes(viewer.agentId);
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
    const row = await this.readable(ref, caller);
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
    const row = await this.readable(ref, caller);
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
    const [row] = await this.visible(await this.uploadsOf(req.artifactRef), { actor: `agent:${agentId}`, agentId });
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
    const uploads = await this.uploadsOf(ref);
    const own: string[] = [];
    for (const u of uploads) if (await this.seesEvidenceOf(u, caller)) own.push(u.uploadId);
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

function validateEnvelope(e: UploadMetadata['envelope']): ArtifactEnvelope | null {
  if (e === undefined) return null;
  const algorithm = e.algorithm.trim();
  if (algorithm === '' || algorithm.length > 64) throw invalid('envelope.algorithm', 'envelope.algorithm is required (≤ 64 chars)');
  if (e.recipientKeyIds.length === 0 || e.recipientKeyIds.length > 100) throw invalid('envelope.recipient_key_ids', 'envelope needs 1-100 recipient_key_ids');
  for (const k of e.recipientKeyIds) if (k === '' || k.length > 256) throw invalid('envelope.recipient_key_ids', 'recipient key ids are 1-256 chars');
  if (e.nonce !== undefined && e.nonce.length > 256) throw invalid('envelope.nonce', 'envelope.nonce is at most 256 chars');
  return { algorithm, recipient_key_ids: e.recipientKeyIds, ...(e.nonce !== undefined && e.nonce !== '' ? { nonce: e.nonce } : {}) };
}
