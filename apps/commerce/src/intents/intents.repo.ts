import type { Queryable } from '@exchange/db';
import type { IntentRecord } from './intent.model';

// The intents table (immutable rows; budget BIGINT micro-units, returned by pg as a string).

const COLUMNS = 'intent_id, agent_id, description, merchants, skus, budget, currency, requires_refundability, expires_at, created_at';

interface IntentRow {
  intent_id: string;
  agent_id: string;
  description: string;
  merchants: string[] | null;
  skus: string[] | null;
  budget: string;
  currency: string;
  requires_refundability: boolean;
  expires_at: Date;
  created_at: Date;
}

function toRecord(r: IntentRow): IntentRecord {
  return {
    intentId: r.intent_id,
    agentId: r.agent_id,
    description: r.description,
    merchants: r.merchants ?? [],
    skus: r.skus ?? [],
    budget: BigInt(r.budget),
    currency: r.currency,
    requiresRefundability: r.requires_refundability,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
  };
}

export async function insertIntent(db: Queryable, i: IntentRecord): Promise<void> {
  await db.query(`INSERT INTO intents (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
    i.intentId, i.agentId, i.description, i.merchants, i.skus, i.budget.toString(), i.currency, i.requiresRefundability, i.expiresAt, i.createdAt,
  ]);
}

export async function getIntent(db: Queryable, intentId: string): Promise<IntentRecord | null> {
  const { rows } = await db.query<IntentRow>(`SELECT ${COLUMNS} FROM intents WHERE intent_id = $1`, [intentId]);
  return rows.length === 0 ? null : toRecord(rows[0]);
}
