import type { CursorKey } from '@exchange/platform';
import type { Visibility } from '../domain/access';
import type { Viewer } from '../domain/caller';
import type { RegistryObject } from '../domain/records';
import type { Queryable } from '@exchange/db';

const OBJECT_COLS = `object_id, type, payload_json, signer_agent_id, signature, signer_public_key, visibility, parties, tags, subject_ref, created_at`;

type Row = Record<string, unknown>;

function objectRow(r: Row): RegistryObject {
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
  async insert(db: Queryable, o: RegistryObject): Promise<{ row: RegistryObject; created: boolean }> {
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

  async get(db: Queryable, objectId: string): Promise<RegistryObject | null> {
    const res = await db.query(`SELECT ${OBJECT_COLS} FROM objects WHERE object_id = $1`, [objectId]);
    return res.rows.length > 0 ? objectRow(res.rows[0]) : null;
  },

  async getMany(db: Queryable, objectIds: string[]): Promise<RegistryObject[]> {
    const res = await db.query(`SELECT ${OBJECT_COLS} FROM objects WHERE object_id = ANY($1) ORDER BY created_at, object_id`, [objectIds]);
    return res.rows.map(objectRow);
  },

  /** Newest first, only what `viewer` may read (objects' parties: signer + listed parties). */
  async list(db: Queryable, filter: ObjectFilter, viewer: Viewer, limit: number): Promise<RegistryObject[]> {
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
