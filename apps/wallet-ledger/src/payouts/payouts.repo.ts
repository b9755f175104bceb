import type pg from 'pg';
import type { WithdrawalStatus } from '../domain/state-machine';
import type { PayoutDestination, PayoutDestinationType, Withdrawal } from '../domain/wallet.model';
import { big, date, pageClause, str, strOrNull, type Row } from '../data/rows';

export function payoutDestinationFromRow(r: Row): PayoutDestination {
  return {
    payoutDestinationId: str(r['payout_destination_id']),
    agentId: str(r['agent_id']),
    type: r['type'] as PayoutDestinationType,
    details: r['details'] as Record<string, string>,
    label: str(r['label']),
    createdAt: date(r['created_at']),
  };
}

export function withdrawalFromRow(r: Row): Withdrawal {
  return {
    withdrawalId: str(r['withdrawal_id']),
    agentId: str(r['agent_id']),
    amount: big(r['amount']),
    currency: str(r['currency']),
    payoutDestinationId: str(r['payout_destination_id']),
    status: r['status'] as WithdrawalStatus,
    failureReason: strOrNull(r['failure_reason']),
    journalEntryIds: (r['journal_entry_ids'] as string[] | null) ?? [],
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
  };
}

/** Reads of payout destinations and withdrawals (writes go through wallet_apply: data/ledger.writer.ts). */
export class PayoutsRepo {
  constructor(private readonly pool: pg.Pool) {}

  async payoutDestination(id: string): Promise<PayoutDestination | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM payout_destinations WHERE payout_destination_id = $1', [id]);
    return rows[0] ? payoutDestinationFromRow(rows[0]) : undefined;
  }

  async payoutDestinations(agentId: string, opts: { cursor?: string; limit: number }): Promise<PayoutDestination[]> {
    const page = pageClause('payout_destination_id', opts.cursor, 3);
    const { rows } = await this.pool.query(
      `SELECT * FROM payout_destinations WHERE agent_id = $1${page.sql}
        ORDER BY created_at DESC, payout_destination_id DESC LIMIT $2`,
      [agentId, opts.limit + 1, ...page.params],
    );
    return rows.map(payoutDestinationFromRow);
  }

  async withdrawal(id: string): Promise<Withdrawal | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM withdrawals WHERE withdrawal_id = $1', [id]);
    return rows[0] ? withdrawalFromRow(rows[0]) : undefined;
  }
}

/**
 * The payout processor's next open withdrawal (with its destination's details), locked in the
 * caller's transaction (SKIP LOCKED: replicas take different ones): one not moved since the
 * round started and not among those the round set aside.
 */
export async function claimNextOpenWithdrawal(
  client: pg.ClientBase,
  roundStart: Date,
  waiting: string[],
): Promise<{ withdrawal: Withdrawal; details: Record<string, string> } | undefined> {
  const { rows } = await client.query(
    `SELECT w.*, d.details AS destination_details
       FROM withdrawals w JOIN payout_destinations d USING (payout_destination_id)
      WHERE w.status IN ('requested', 'processing') AND w.updated_at < $1 AND NOT (w.withdrawal_id = ANY($2::text[]))
      ORDER BY w.created_at, w.withdrawal_id LIMIT 1 FOR UPDATE OF w SKIP LOCKED`,
    [roundStart, waiting],
  );
  return rows[0] ? { withdrawal: withdrawalFromRow(rows[0]), details: rows[0].destination_details as Record<string, string> } : undefined;
}
