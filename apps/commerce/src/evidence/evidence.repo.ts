import { newId } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import { GENESIS_HASH, nextLink } from './evidence-chain';
import type { EvidenceInput, EvidenceRecord } from './evidence.model';

// The evidence table: append-only, one hash chain per checkout session whose head (seq, hash) lives
// on the session row. Appending locks that row, so concurrent appends to one session serialize.

/**
 * Appends `items` to the session's chain inside the caller's transaction (`db` must be a client in
 * an open transaction) and moves the session's head. Returns the stored records.
 */
export async function appendEvidence(db: Queryable, sessionId: string, items: EvidenceInput[], now: Date): Promise<EvidenceRecord[]> {
  if (items.length === 0) return [];
  const { rows } = await db.query<{ evidence_seq: number; evidence_head: string }>(
    'SELECT evidence_seq, evidence_head FROM checkout_sessions WHERE commerce_session_id = $1 FOR UPDATE',
    [sessionId],
  );
  if (rows.length === 0) throw new Error(`appendEvidence: no session ${sessionId}`);
  let head = { seq: rows[0].evidence_seq, hash: rows[0].evidence_seq === 0 ? GENESIS_HASH : rows[0].evidence_head };
  const stored: EvidenceRecord[] = [];
  for (const item of items) {
    const link = nextLink(head, item.content);
    const record: EvidenceRecord = { ...item, evidenceId: newId('evd'), commerceSessionId: sessionId, ...link, recordedAt: now };
    await db.query(
      `INSERT INTO evidence (evidence_id, commerce_session_id, seq, kind, operation, content, content_sha256, prev_hash, hash, schema_result, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11)`,
      [record.evidenceId, sessionId, record.seq, record.kind, record.operation, JSON.stringify(record.content), record.contentSha256, record.prevHash, record.hash, record.schemaResult, now],
    );
    stored.push(record);
    head = { seq: link.seq, hash: link.hash };
  }
  await db.query('UPDATE checkout_sessions SET evidence_seq = $2, evidence_head = $3 WHERE commerce_session_id = $1', [sessionId, head.seq, head.hash]);
  return stored;
}

interface EvidenceRow {
  evidence_id: string;
  commerce_session_id: string;
  seq: number;
  kind: EvidenceRecord['kind'];
  operation: string;
  content: Record<string, unknown>;
  content_sha256: string;
  prev_hash: string;
  hash: string;
  schema_result: EvidenceRecord['schemaResult'];
  recorded_at: Date;
}

const toRecord = (r: EvidenceRow): EvidenceRecord => ({
  evidenceId: r.evidence_id,
  commerceSessionId: r.commerce_session_id,
  seq: r.seq,
  kind: r.kind,
  operation: r.operation,
  content: r.content,
  contentSha256: r.content_sha256,
  prevHash: r.prev_hash,
  hash: r.hash,
  schemaResult: r.schema_result,
  recordedAt: r.recorded_at,
});

/** The session's evidence in chain order, after `afterSeq`, at most `limit` (all when omitted). */
export async function listEvidence(db: Queryable, sessionId: string, opts: { afterSeq?: number; limit?: number } = {}): Promise<EvidenceRecord[]> {
  const { rows } = await db.query<EvidenceRow>(
    `SELECT * FROM evidence WHERE commerce_session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [sessionId, opts.afterSeq ?? 0, opts.limit ?? null],
  );
  return rows.map(toRecord);
}
