import type pg from 'pg';
import type { EventQuery } from '../domain/event-filter';
import type { EventKey, OperatorEvent, PublicEvent } from '../domain/stored-event';
import { filterConditions, OPERATOR_COLUMNS, toOperatorEvent, whereClause, type OperatorRow } from './event-rows.repo';

/** A public row: the event's public part and, for its contract, the buyer's privacy and alias now. */
export type PublicRow = Omit<PublicEvent, 'dataJson'> & {
  publicJson: string;
  buyerPrivate: boolean;
  buyerAlias: string | null;
};

interface PublicSqlRow {
  seq: string;
  event_id: string;
  type: string;
  subject_id: string;
  occurred_at: Date;
  contract_id: string | null;
  listing_id: string | null;
  public_json: string;
  buyer_private: boolean | null;
  buyer_alias: string | null;
}

/** Reads of the event store in store order (seq), filtered; every read is one keyset page. */
export class FeedsRepo {
  constructor(private readonly deps: { pool: pg.Pool }) {}

  async publicPage(query: EventQuery, after: EventKey | null, limit: number): Promise<PublicRow[]> {
    const params: unknown[] = [];
    const conds = ['e.public_data IS NOT NULL', ...filterConditions(query, after, params)];
    params.push(limit);
    const { rows } = await this.deps.pool.query<PublicSqlRow>(
      `SELECT e.seq::text AS seq, e.event_id, e.type, e.subject_id, e.occurred_at, e.contract_id, e.listing_id,
              e.public_data::text AS public_json, f.buyer_private, f.buyer_alias
         FROM events e LEFT JOIN contract_facts f ON f.contract_id = e.contract_id
         ${whereClause(conds)}
        ORDER BY e.seq LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({
      seq: r.seq,
      eventId: r.event_id,
      type: r.type,
      subjectId: r.subject_id,
      occurredAt: r.occurred_at,
      contractId: r.contract_id,
      listingId: r.listing_id,
      publicJson: r.public_json,
      buyerPrivate: r.buyer_private === true,
      buyerAlias: r.buyer_alias,
    }));
  }

  async operatorPage(query: EventQuery, after: EventKey | null, limit: number): Promise<OperatorEvent[]> {
    const params: unknown[] = [];
    const conds = filterConditions(query, after, params);
    params.push(limit);
    const { rows } = await this.deps.pool.query<OperatorRow>(
      `SELECT ${OPERATOR_COLUMNS} FROM events e ${whereClause(conds)} ORDER BY e.seq LIMIT $${params.length}`,
      params,
    );
    return rows.map(toOperatorEvent);
  }
}
