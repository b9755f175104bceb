import type pg from 'pg';
import type { HoldStatus } from '../domain/state-machine';
import type { Hold } from '../domain/wallet.model';
import { big, bigOrNull, date, str, strOrNull, type Row } from '../data/rows';

export function holdFromRow(r: Row): Hold {
  return {
    holdId: str(r['hold_id']),
    agentId: str(r['agent_id']),
    amount: big(r['amount']),
    currency: str(r['currency']),
    status: r['status'] as HoldStatus,
    expiresAt: (r['expires_at'] as Date | null) ?? null,
    reference: strOrNull(r['reference']),
    consumedAmount: bigOrNull(r['consumed_amount']),
    releasedAmount: bigOrNull(r['released_amount']),
    consumedToAgentId: strOrNull(r['consumed_to_agent_id']),
    journalEntryIds: (r['journal_entry_ids'] as string[] | null) ?? [],
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
    controller: str(r['controller']),
  };
}

/** Reads of holds (every write goes through wallet_apply: data/ledger.writer.ts). */
export class HoldsRepo {
  constructor(private readonly pool: pg.Pool) {}

  async hold(holdId: string): Promise<Hold | undefined> {
    const { rows } = await this.pool.query({ name: 'wallet_hold', text: 'SELECT * FROM holds WHERE hold_id = $1', values: [holdId] });
    return rows[0] ? holdFromRow(rows[0]) : undefined;
  }
}

/**
 * The sweeper's next due hold, locked in the caller's transaction (SKIP LOCKED: replicas take
 * different ones). Only the agent's own holds expire here: a service's hold (market escrow) ends
 * only through that service (it cannot have expires_at; this is the backstop).
 */
export async function claimNextExpiredHold(client: pg.ClientBase, now: Date): Promise<Hold | undefined> {
  const { rows } = await client.query(
    `SELECT * FROM holds WHERE status = 'active' AND expires_at <= $1 AND controller = 'agent'
      ORDER BY expires_at, hold_id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [now],
  );
  return rows[0] ? holdFromRow(rows[0]) : undefined;
}
