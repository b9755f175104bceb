import type pg from 'pg';
import type { DepositStatus } from '../domain/state-machine';
import type { Deposit, DepositMethod } from '../domain/wallet.model';
import { big, date, pageClause, str, strOrNull, type Row } from '../data/rows';

export function depositFromRow(r: Row): Deposit {
  return {
    depositId: str(r['deposit_id']),
    agentId: str(r['agent_id']),
    amount: big(r['amount']),
    currency: str(r['currency']),
    method: r['method'] as DepositMethod,
    reference: strOrNull(r['reference']),
    status: r['status'] as DepositStatus,
    journalEntryId: strOrNull(r['journal_entry_id']),
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
  };
}

/** Reads of deposits (every write goes through wallet_apply: data/ledger.writer.ts). */
export class DepositsRepo {
  constructor(private readonly pool: pg.Pool) {}

  async deposit(depositId: string): Promise<Deposit | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM deposits WHERE deposit_id = $1', [depositId]);
    return rows[0] ? depositFromRow(rows[0]) : undefined;
  }

  async deposits(agentId: string, opts: { status?: DepositStatus; cursor?: string; limit: number }): Promise<Deposit[]> {
    const params: unknown[] = [agentId, opts.limit + 1];
    let where = 'agent_id = $1';
    if (opts.status) {
      params.push(opts.status);
      where += ` AND status = $${params.length}`;
    }
    const page = pageClause('deposit_id', opts.cursor, params.length + 1);
    const { rows } = await this.pool.query(
      `SELECT * FROM deposits WHERE ${where}${page.sql} ORDER BY created_at DESC, deposit_id DESC LIMIT $2`,
      [...params, ...page.params],
    );
    return rows.map(depositFromRow);
  }
}
