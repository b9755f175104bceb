import type pg from 'pg';
import { decodeCursor, type CursorKey } from '@exchange/platform';
import type { Visibility } from '../domain/access';
import type { Viewer } from '../domain/caller';
import type { Queryable } from './db';

export interface ObjectRow {
  objectId: string;
  type: string;
  payloadJson: string;
  signerAgentId: string;
  signature: string;
  signerPublicKey: string;
  visibility: Visibility;
  parties: string[];
  tags: string[];
  subjectRef: string | null;
  createdAt: Date;
}

export interface EnvelopeJson {
  algorithm: string;
  recipient_key_ids: string[];
  nonce?: string;
}

/**
 * One upload of some bytes as the API shows it: the upload's own metadata (uploader, contract,
 * access, parties, envelope, created_at) joined with the bytes' size and takedown state.
 */
export interface ArtifactRow {
  uploadId: string;
  artifactRef: string;
  sizeBytes: number;
  mediaType: string;
  contractId: string | null;
  access: Visibility;
  parties: string[];
  envelope: EnvelopeJson | null;
  status: 'active' | 'removed';
  removedReason: string | null;
  uploadedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface AckRow {
  ackId: string;
  artifactRef: string;
  uploadId: string;
  agentId: string;
  signature: string;
  createdAt: Date;
}

export interface DeliveryReceiptRow {
  deliveryReceiptId: string;
  artifactRef: string;
  uploadId: string;
  agentId: string;
  sizeBytes: number;
  deliveredAt: Date;
  signature: string;
  signerPublicKey: string;
}

const OBJECT_COLS = `object_id, type, payload_json, signer_agent_id, signature, signer_public_key, visibility, parties, tags, subject_ref, created_at`;
/** An upload joined with its bytes (FROM artifact_uploads u JOIN artifacts a). */
const ARTIFACT_COLS = `u.upload_id, u.artifact_ref, a.size_bytes, u.media_type, u.contract_id, u.access, u.parties, u.envelope, a.status,
  a.removed_reason, u.uploaded_by, u.created_at, GREATEST(u.updated_at, a.updated_at) AS updated_at`;
const ARTIFACT_FROM = `artifact_uploads u JOIN artifacts a ON a.artifact_ref = u.artifact_ref`;
const UPLOAD_COLS = `upload_id, artifact_ref, uploaded_by, contract_id, media_type, access, parties, envelope, created_at, updated_at`;
const ACK_COLS = `ack_id, artifact_ref, upload_id, agent_id, signature, created_at`;
const RECEIPT_COLS = `delivery_receipt_id, artifact_ref, upload_id, agent_id, size_bytes, delivered_at, signature, signer_public_key`;

type Row = Record<string, unknown>;

function objectRow(r: Row): ObjectRow {
  return {
    objectId: r.object_id as string,
    type: r.type as string,
    payloadJson: r.payload_json as string,
    signerAgentId: r.signer_agent_id as string,
    signature: r.signature as string,
    signerPublicKey: r.signer_public_key as string,
    visibility: r.visibility as Visibility,
    parties: (r.parties as string[] | null) ?? [],
    tags: (r.tags as string[] | null) ?? [],
    subjectRef: (r.subject_ref as string | null) ?? null,
    createdAt: r.created_at as Date,
  };
}

function artifactRow(r: Row): ArtifactRow {
  return {
    uploadId: r.upload_id as string,
    artifactRef: r.artifact_ref as string,
    sizeBytes: Number(r.size_bytes),
    mediaType: r.media_type as string,
    contractId: (r.contract_id as string | null) ?? null,
    access: r.access as Visibility,
    parties: (r.parties as string[] | null) ?? [],
    envelope: (r.envelope as EnvelopeJson | null) ?? null,
    status: r.status as 'active' | 'removed',
    removedReason: (r.removed_reason as string | null) ?? null,
    uploadedBy: r.uploaded_by as string,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

function ackRow(r: Row): AckRow {
  return {
    ackId: r.ack_id as string,
    artifactRef: r.artifact_ref as string,
    uploadId: r.upload_id as string,
    agentId: r.agent_id as string,
    signature: r.signature as string,
    createdAt: r.created_at as Date,
  };
}

function receiptRow(r: Row): DeliveryReceiptRow {
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

export interface ObjectFilter {
  type?: string;
  tag?: string;
  signerAgentId?: string;
  subjectRef?: string;
  from?: Date;
  to?: Date;
  cursor?: CursorKey;
}

/** Objects repository: plain SQL, no rules (those are in the service and domain). */
export const objectsRepo = {
  /** Inserts unless the object id exists; returns the stored row and whether it was new. */
  async insert(db: Queryable, o: ObjectRow): Promise<{ row: ObjectRow; created: boolean }> {
    const inserted = await db.query(
      `INSERT INTO objects (${OBJECT_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)
       ON CONFLICT (object_id) DO NOTHING RETURNING ${OBJECT_COLS}`,
      [o.objectId, o.type, o.payloadJson, o.signerAgentId, o.signature, o.signerPublicKey, o.visibility, o.parties, o.tags, o.subjectRef, o.createdAt],
    );
    if (inserted.rows.length > 0) return { row: objectRow(inserted.rows[0]), created: true };
    const existing = await this.get(db, o.objectId);
    if (!existing) throw new Error(`object ${o.objectId} vanished after a conflict`);
    return { row: existing, created: false };
  },

  async get(db: Queryable, objectId: string): Promise<ObjectRow | null> {
    const res = await db.query(`SELECT ${OBJECT_COLS} FROM objects WHERE object_id = $1`, [objectId]);
    return res.rows.length > 0 ? objectRow(res.rows[0]) : null;
  },

  async getMany(db: Queryable, objectIds: string[]): Promise<ObjectRow[]> {
    const res = await db.query(`SELECT ${OBJECT_COLS} FROM objects WHERE object_id = ANY($1) ORDER BY created_at, object_id`, [objectIds]);
    return res.rows.map(objectRow);
  },

  /** Newest first, only what `viewer` may read (objects' parties: signer + listed parties). */
  async list(db: Queryable, filter: ObjectFilter, viewer: Viewer, limit: number): Promise<ObjectRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const arg = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    if (filter.type !== undefined) where.push(`type = ${arg(filter.type)}`);
    if (filter.tag !== undefined) where.push(`tags @> ARRAY[${arg(filter.tag)}]::text[]`);
    if (filter.signerAgentId !== undefined) where.push(`signer_agent_id = ${arg(filter.signerAgentId)}`);
    if (filter.subjectRef !== undefined) where.push(`subject_ref = ${arg(filter.subjectRef)}`);
    if (filter.from !== undefined) where.push(`created_at >= ${arg(filter.from)}`);
    if (filter.to !== undefined) where.push(`created_at < ${arg(filter.to)}`);
    if (filter.cursor !== undefined) where.push(`(created_at, object_id) < (${arg(filter.cursor.createdAt)}, ${arg(filter.cursor.id)})`);
    if (viewer.kind === 'anonymous') where.push(`visibility = 'public'`);
    if (viewer.kind === 'agent') {
      const a = arg(viewer.agentId);
      where.push(`(visibility = 'public' OR (visibility = 'parties' AND (signer_agent_id = ${a} OR ${a} = ANY(parties))))`);
    }
    const sql = `SELECT ${OBJECT_COLS} FROM objects ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY created_at DESC, object_id DESC LIMIT ${arg(limit)}`;
    const res = await db.query(sql, args);
    return res.rows.map(objectRow);
  },
};

/** The bytes' own row: size and takedown state (shared by every upload of them). */
export interface BlobRow {
  artifactRef: string;
  sizeBytes: number;
  status: 'active' | 'removed';
  removedReason: string | null;
}

export type NewUpload = Omit<ArtifactRow, 'status' | 'removedReason'>;

export const artifactsRepo = {
  /**
   * Records an upload: the bytes' row when they are new, then the upload unless this uploader
   * already uploaded these bytes for this contract (or none) — then that upload is returned.
   */
  async insertUpload(db: Queryable, u: NewUpload): Promise<{ row: ArtifactRow; created: boolean }> {
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

  async blob(db: Queryable, ref: string, forUpdate = false): Promise<BlobRow | null> {
    const res = await db.query(`SELECT artifact_ref, size_bytes, status, removed_reason FROM artifacts WHERE artifact_ref = $1${forUpdate ? ' FOR UPDATE' : ''}`, [ref]);
    if (res.rows.length === 0) return null;
    const r = res.rows[0] as Row;
    return {
      artifactRef: r.artifact_ref as string,
      sizeBytes: Number(r.size_bytes),
      status: r.status as 'active' | 'removed',
      removedReason: (r.removed_reason as string | null) ?? null,
    };
  },

  /** Every upload of the bytes, oldest first. */
  async uploadsOf(db: Queryable, ref: string): Promise<ArtifactRow[]> {
    const res = await db.query(`SELECT ${ARTIFACT_COLS} FROM ${ARTIFACT_FROM} WHERE u.artifact_ref = $1 ORDER BY u.created_at, u.upload_id`, [ref]);
    return res.rows.map(artifactRow);
  },

  /** Uploads made for the contract, oldest first. */
  async uploadsForContract(db: Queryable, contractId: string): Promise<ArtifactRow[]> {
    const res = await db.query(`SELECT ${ARTIFACT_COLS} FROM ${ARTIFACT_FROM} WHERE u.contract_id = $1 ORDER BY u.created_at, u.upload_id`, [contractId]);
    return res.rows.map(artifactRow);
  },

  async setStatus(db: Queryable, ref: string, status: 'active' | 'removed', removedReason: string | null, at: Date): Promise<void> {
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
  async insertAck(db: Queryable, a: AckRow): Promise<{ row: AckRow; created: boolean }> {
    const inserted = await db.query(
      `INSERT INTO artifact_acks (${ACK_COLS}) VALUES ($1,$2,$3,$4,$5,$6)
       ON CONFLICT (upload_id, agent_id) DO NOTHING RETURNING ${ACK_COLS}`,
      [a.ackId, a.artifactRef, a.uploadId, a.agentId, a.signature, a.createdAt],
    );
    if (inserted.rows.length > 0) return { row: ackRow(inserted.rows[0]), created: true };
    const res = await db.query(`SELECT ${ACK_COLS} FROM artifact_acks WHERE upload_id = $1 AND agent_id = $2`, [a.uploadId, a.agentId]);
    return { row: ackRow(res.rows[0]), created: false };
  },

  async listAcks(db: Queryable, uploadIds: string[]): Promise<AckRow[]> {
    const res = await db.query(`SELECT ${ACK_COLS} FROM artifact_acks WHERE upload_id = ANY($1) ORDER BY created_at, ack_id`, [uploadIds]);
    return res.rows.map(ackRow);
  },

  async insertReceipt(db: Queryable, r: DeliveryReceiptRow): Promise<void> {
    await db.query(
      `INSERT INTO delivery_receipts (${RECEIPT_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
      [r.deliveryReceiptId, r.artifactRef, r.uploadId, r.agentId, r.sizeBytes, r.deliveredAt, r.signature, r.signerPublicKey],
    );
  },

  /** Receipts of the given uploads, newest first. */
  async listReceipts(db: Queryable, uploadIds: string[], cursor: string | undefined, limit: number): Promise<DeliveryReceiptRow[]> {
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

  async allReceipts(db: Queryable, uploadIds: string[]): Promise<DeliveryReceiptRow[]> {
    const res = await db.query(`SELECT ${RECEIPT_COLS} FROM delivery_receipts WHERE upload_id = ANY($1) ORDER BY delivered_at, delivery_receipt_id`, [uploadIds]);
    return res.rows.map(receiptRow);
  },
};

export type { pg };
