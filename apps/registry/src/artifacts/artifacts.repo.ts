import { decodeCursor } from '@exchange/platform';
import type { Visibility } from '../domain/access';
import type { ArtifactAck, ArtifactBlob, ArtifactEnvelope, ArtifactStatus, ArtifactUpload, DeliveryReceipt } from '../domain/records';
import type { Queryable } from '@exchange/db';

/** An upload joined with its bytes (FROM artifact_uploads u JOIN artifacts a). */
const ARTIFACT_COLS = `u.upload_id, u.artifact_ref, a.size_bytes, u.media_type, u.contract_id, u.access, u.parties, u.envelope, a.status,
  a.removed_reason, u.uploaded_by, u.created_at, GREATEST(u.updated_at, a.updated_at) AS updated_at`;
const ARTIFACT_FROM = `artifact_uploads u JOIN artifacts a ON a.artifact_ref = u.artifact_ref`;
const UPLOAD_COLS = `upload_id, artifact_ref, uploaded_by, contract_id, media_type, access, parties, envelope, created_at, updated_at`;
const ACK_COLS = `ack_id, artifact_ref, upload_id, agent_id, signature, created_at`;
const RECEIPT_COLS = `delivery_receipt_id, artifact_ref, upload_id, agent_id, size_bytes, delivered_at, signature, signer_public_key`;

type Row = Record<string, unknown>;

function artifactRow(r: Row): ArtifactUpload {
  return {
    uploadId: r.upload_id as string,
    artifactRef: r.artifact_ref as string,
    sizeBytes: Number(r.size_bytes),
    mediaType: r.media_type as string,
    contractId: (r.contract_id as string | null) ?? null,
    access: r.access as Visibility,
    parties: (r.parties as string[] | null) ?? [],
    envelope: (r.envelope as ArtifactEnvelope | null) ?? null,
    status: r.status as ArtifactStatus,
    removedReason: (r.removed_reason as string | null) ?? null,
    uploadedBy: r.uploaded_by as string,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

function ackRow(r: Row): ArtifactAck {
  return {
    ackId: r.ack_id as string,
    artifactRef: r.artifact_ref as string,
    uploadId: r.upload_id as string,
    agentId: r.agent_id as string,
    signature: r.signature as string,
    createdAt: r.created_at as Date,
  };
}

function receiptRow(r: Row): DeliveryReceipt {
  return {
    deliveryReceiptId: r.delivery_receipt_id as string,
    artifactRef: r.artifact_ref as string,
    uploadId: r.upload_id as string,
    agentId: r.agent_id as string,
    sizeBytes: Number(r.size_bytes),
    deliveredAt: r.delivered_at as Date,
    signature: r.signature as string,
    signerPublicKey: r.signer_public_key as string,
  };
}

export type NewUpload = Omit<ArtifactUpload, 'status' | 'removedReason'>;

export const artifactsRepo = {
  /**
   * Records an upload: the bytes' row when they are new, then the upload unless this uploader
   * already uploaded these bytes for this contract (or none) — then that upload is returned.
   */
  async insertUpload(db: Queryable, u: NewUpload): Promise<{ row: ArtifactUpload; created: boolean }> {
    await db.query(
      `INSERT INTO artifacts (artifact_ref, size_bytes, status, removed_reason, created_at, updated_at) VALUES ($1,$2,'active',NULL,$3,$3)
       ON CONFLICT (artifact_ref) DO NOTHING`,
      [u.artifactRef, u.sizeBytes, u.createdAt],
    );
    const inserted = await db.query(
      `INSERT INTO artifact_uploads (${UPLOAD_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)
       ON CONFLICT (artifact_ref, uploaded_by, (COALESCE(contract_id, ''))) DO NOTHING RETURNING upload_id`,
      [
        u.uploadId,
        u.artifactRef,
        u.uploadedBy,
        u.contractId,
        u.mediaType,
        u.access,
        u.parties,
        u.envelope === null ? null : JSON.stringify(u.envelope),
        u.createdAt,
        u.updatedAt,
      ],
    );
    const created = inserted.rows.length > 0;
    const res = await db.query(
      `SELECT ${ARTIFACT_COLS} FROM ${ARTIFACT_FROM}
       WHERE u.artifact_ref = $1 AND u.uploaded_by = $2 AND COALESCE(u.contract_id, '') = COALESCE($3, '')`,
      [u.artifactRef, u.uploadedBy, u.contractId],
    );
    if (res.rows.length === 0) throw new Error(`upload of ${u.artifactRef} vanished after a conflict`);
    return { row: artifactRow(res.rows[0]), created };
  },

  async blob(db: Queryable, ref: string, forUpdate = false): Promise<ArtifactBlob | null> {
    const res = await db.query(`SELECT artifact_ref, size_bytes, status, removed_reason FROM artifacts WHERE artifact_ref = $1${forUpdate ? ' FOR UPDATE' : ''}`, [ref]);
    if (res.rows.length === 0) return null;
    const r = res.rows[0] as Row;
    return {
      artifactRef: r.artifact_ref as string,
      sizeBytes: Number(r.size_bytes),
      status: r.status as ArtifactStatus,
      removedReason: (r.removed_reason as string | null) ?? null,
    };
  },

  /** Every upload of the bytes, oldest first. */
  async uploadsOf(db: Queryable, ref: string): Promise<ArtifactUpload[]> {
    const res = await db.query(`SELECT ${ARTIFACT_COLS} FROM ${ARTIFACT_FROM} WHERE u.artifact_ref = $1 ORDER BY u.created_at, u.upload_id`, [ref]);
    return res.rows.map(artifactRow);
  },

  /** Uploads made for the contract, oldest first. */
  async uploadsForContract(db: Queryable, contractId: string): Promise<ArtifactUpload[]> {
    const res = await db.query(`SELECT ${ARTIFACT_COLS} FROM ${ARTIFACT_FROM} WHERE u.contract_id = $1 ORDER BY u.created_at, u.upload_id`, [contractId]);
    return res.rows.map(artifactRow);
  },

  async setStatus(db: Queryable, ref: string, status: ArtifactStatus, removedReason: string | null, at: Date): Promise<void> {
    await db.query(`UPDATE artifacts SET status = $2, removed_reason = $3, updated_at = $4 WHERE artifact_ref = $1`, [ref, status, removedReason, at]);
  },

  async audit(db: Queryable, rec: { id: string; action: string; artifactRef: string; operator: string; reason: string; at: Date }): Promise<void> {
    await db.query(`INSERT INTO audit_log (id, action, artifact_ref, operator, reason, at) VALUES ($1,$2,$3,$4,$5,$6)`, [
      rec.id,
      rec.action,
      rec.artifactRef,
      rec.operator,
      rec.reason,
      rec.at,
    ]);
  },

  /** One ack per upload and agent; a second returns the first. */
  async insertAck(db: Queryable, a: ArtifactAck): Promise<{ row: ArtifactAck; created: boolean }> {
    const inserted = await db.query(
      `INSERT INTO artifact_acks (${ACK_COLS}) VALUES ($1,$2,$3,$4,$5,$6)
       ON CONFLICT (upload_id, agent_id) DO NOTHING RETURNING ${ACK_COLS}`,
      [a.ackId, a.artifactRef, a.uploadId, a.agentId, a.signature, a.createdAt],
    );
    if (inserted.rows.length > 0) return { row: ackRow(inserted.rows[0]), created: true };
    const res = await db.query(`SELECT ${ACK_COLS} FROM artifact_acks WHERE upload_id = $1 AND agent_id = $2`, [a.uploadId, a.agentId]);
    return { row: ackRow(res.rows[0]), created: false };
  },

  async listAcks(db: Queryable, uploadIds: string[]): Promise<ArtifactAck[]> {
    const res = await db.query(`SELECT ${ACK_COLS} FROM artifact_acks WHERE upload_id = ANY($1) ORDER BY created_at, ack_id`, [uploadIds]);
    return res.rows.map(ackRow);
  },

  async insertReceipt(db: Queryable, r: DeliveryReceipt): Promise<void> {
    await db.query(
      `INSERT INTO delivery_receipts (${RECEIPT_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
      [r.deliveryReceiptId, r.artifactRef, r.uploadId, r.agentId, r.sizeBytes, r.deliveredAt, r.signature, r.signerPublicKey],
    );
  },

  /** Receipts of the given uploads, newest first. */
  async listReceipts(db: Queryable, uploadIds: string[], cursor: string | undefined, limit: number): Promise<DeliveryReceipt[]> {
    const args: unknown[] = [uploadIds, limit];
    let after = '';
    if (cursor) {
      const key = decodeCursor(cursor);
      args.push(key.createdAt, key.id);
      after = 'AND (delivered_at, delivery_receipt_id) < ($3, $4)';
    }
    const res = await db.query(
      `SELECT ${RECEIPT_COLS} FROM delivery_receipts WHERE upload_id = ANY($1) ${after} ORDER BY delivered_at DESC, delivery_receipt_id DESC LIMIT $2`,
      args,
    );
    return res.rows.map(receiptRow);
  },

  async allReceipts(db: Queryable, uploadIds: string[]): Promise<DeliveryReceipt[]> {
    const res = await db.query(`SELECT ${RECEIPT_COLS} FROM delivery_receipts WHERE upload_id = ANY($1) ORDER BY delivered_at, delivery_receipt_id`, [uploadIds]);
    return res.rows.map(receiptRow);
  },
};
