import type pg from 'pg';
import type { EventKey, OperatorEvent } from '../domain/stored-event';
import { OPERATOR_COLUMNS, toOperatorEvent, type OperatorRow } from '../feeds/event-rows.repo';

/** A contract's events (filed under it by ingest) in (occurred_at, seq) order: events_contract_idx. */
export class TimelinesRepo {
  constructor(private readonly deps: { pool: pg.Pool }) {}

  async page(contractId: string, after: EventKey | null, limit: number): Promise<OperatorEvent[]> {
    const params: unknown[] = [contractId];
    let keyset = '';
    if (after) {
      params.push(after.occurredAt, after.seq);
      keyset = 'AND (e.occurred_at, e.seq) > ($2, $3::bigint)';
    }
    params.push(limit);
    const { rows } = await this.deps.pool.query<OperatorRow>(
      `SELECT ${OPERATOR_COLUMNS} FROM events e
        WHERE e.contract_id = $1 ${keyset}
        ORDER BY e.occurred_at, e.seq LIMIT $${params.length}`,
      params,
    );
    return rows.map(toOperatorEvent);
  }

  async anyEvent(contractId: string): Promise<boolean> {
    const { rows } = await this.deps.pool.query('SELECT 1 FROM events WHERE contract_id = $1 LIMIT 1', [contractId]);
    return rows.length > 0;
  }
}
