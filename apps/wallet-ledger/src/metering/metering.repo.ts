import type pg from 'pg';
import { withTransaction, type Queryable } from '@exchange/db';
import { enqueueEvent, pgSqlExecutor, type EventEnvelope } from '@exchange/events';
import { lockBillingPeriod, lockEpochTables } from '../data/period-lock';
import { big, date, str, strOrNull, type Row } from '../data/rows';
import type { EpochPrice, MeterEpochTable } from './epoch-table';
import type { MeterEvent } from './meter-event';
import { readOnlyNow } from '../data/controls';

/** One epoch's price of one meter and the range it applies to. */
export interface EpochPriceRow extends EpochPrice {
  epoch: string;
  effectiveFrom: Date;
  effectiveTo: Date;
  currency: string;
}

function meterEventFromRow(r: Row): MeterEvent {
  return {
    objectId: str(r['object_id']),
    signerAgentId: str(r['signer_agent_id']),
    signature: str(r['signature']),
    payloadJson: str(r['payload_json']),
    meter: str(r['meter']),
    subjectAgentId: str(r['subject_agent_id']),
    quantity: big(r['quantity']),
    unit: str(r['unit']),
    occurredAt: date(r['occurred_at']),
    epoch: str(r['epoch']),
    ref: strOrNull(r['ref']),
    period: str(r['period']),
    unitPrice: big(r['unit_price']),
    currency: str(r['currency']),
    ingestedAt: date(r['ingested_at']),
  };
}

function priceFromRow(r: Row): EpochPriceRow {
  return {
    epoch: str(r['epoch']),
    meter: str(r['meter']),
    effectiveFrom: date(r['effective_from']),
    effectiveTo: date(r['effective_to']),
    unitPrice: big(r['unit_price']),
    currency: str(r['currency']),
  };
}

/** The metering queries, on the pool (reads) or inside one transaction (MeteringRepo.transaction). */
export class MeteringQueries {
  constructor(private readonly db: Queryable) {}

  readOnly(): Promise<boolean> {
    return readOnlyNow(this.db);
  }

  async meterEvent(objectId: string): Promise<MeterEvent | undefined> {
    const { rows } = await this.db.query('SELECT * FROM meter_events WHERE object_id = $1', [objectId]);
    return rows[0] ? meterEventFromRow(rows[0]) : undefined;
  }

  /** Inserts the event unless its object id is there already; true when inserted. */
  async insertMeterEvent(e: MeterEvent): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO meter_events (object_id, signer_agent_id, subject_agent_id, meter, quantity, unit, occurred_at, epoch, ref, period,
         unit_price, currency, payload_json, signature, ingested_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (object_id) DO NOTHING`,
      [
        e.objectId, e.signerAgentId, e.subjectAgentId, e.meter, e.quantity.toString(), e.unit, e.occurredAt, e.epoch, e.ref, e.period,
        e.unitPrice.toString(), e.currency, e.payloadJson, e.signature, e.ingestedAt,
      ],
    );
    return rowCount === 1;
  }

  /** Whether the agent's period receipt of `period` was emitted (the period is then closed to it). */
  async periodEmitted(agentId: string, period: string): Promise<boolean> {
    const { rows } = await this.db.query(`SELECT 1 FROM period_receipts WHERE agent_id = $1 AND period = $2 AND status = 'emitted'`, [agentId, period]);
    return rows.length > 0;
  }

  async epochExists(epoch: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM meter_epoch_tables WHERE epoch = $1', [epoch]);
    return rows.length > 0;
  }

  async price(epoch: string, meter: string): Promise<EpochPriceRow | undefined> {
    const { rows } = await this.db.query('SELECT * FROM meter_epoch_prices WHERE epoch = $1 AND meter = $2', [epoch, meter]);
    return rows[0] ? priceFromRow(rows[0]) : undefined;
  }

  /** Every epoch's price row of these meters. */
  async pricesOfMeters(meters: string[]): Promise<EpochPriceRow[]> {
    const { rows } = await this.db.query('SELECT * FROM meter_epoch_prices WHERE meter = ANY($1::text[]) ORDER BY meter COLLATE "C", effective_from', [meters]);
    return rows.map(priceFromRow);
  }

  async epochTable(objectId: string): Promise<MeterEpochTable | undefined> {
    return this.tableWhere('object_id', objectId);
  }

  async epochTableByName(epoch: string): Promise<MeterEpochTable | undefined> {
    return this.tableWhere('epoch', epoch);
  }

  async insertEpochTable(t: MeterEpochTable): Promise<void> {
    await this.db.query(
      `INSERT INTO meter_epoch_tables (object_id, epoch, effective_from, effective_to, currency, payload_json, signature, signer_public_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [t.objectId, t.epoch, t.effectiveFrom, t.effectiveTo, t.currency, t.payloadJson, t.signature, t.signerPublicKey, t.createdAt],
    );
    await this.db.query(
      `INSERT INTO meter_epoch_prices (epoch, meter, effective_from, effective_to, unit_price, currency)
       SELECT $1, p.meter, $2, $3, p.unit_price, $4 FROM unnest($5::text[], $6::bigint[]) AS p(meter, unit_price)`,
      [t.epoch, t.effectiveFrom, t.effectiveTo, t.currency, t.prices.map((p) => p.meter), t.prices.map((p) => p.unitPrice.toString())],
    );
  }

  private async tableWhere(column: 'object_id' | 'epoch', value: string): Promise<MeterEpochTable | undefined> {
    const { rows } = await this.db.query(`SELECT * FROM meter_epoch_tables WHERE ${column} = $1`, [value]);
    const r = rows[0];
    if (!r) return undefined;
    const prices = await this.db.query('SELECT meter, unit_price FROM meter_epoch_prices WHERE epoch = $1 ORDER BY meter COLLATE "C"', [r['epoch']]);
    return {
      objectId: str(r['object_id']),
      epoch: str(r['epoch']),
      effectiveFrom: date(r['effective_from']),
      effectiveTo: date(r['effective_to']),
      prices: prices.rows.map((p) => ({ meter: str(p['meter']), unitPrice: big(p['unit_price']) })),
      currency: str(r['currency']),
      payloadJson: str(r['payload_json']),
      signature: str(r['signature']),
      signerPublicKey: str(r['signer_public_key']),
      createdAt: date(r['created_at']),
    };
  }
}

/** The queries inside one transaction, with the locks that serialise what they decide. */
export class MeteringTransaction extends MeteringQueries {
  constructor(private readonly client: pg.PoolClient) {
    super(client);
  }

  lockBillingPeriod(agentId: string, period: string): Promise<void> {
    return lockBillingPeriod(this.client, agentId, period);
  }

  lockEpochTables(): Promise<void> {
    return lockEpochTables(this.client);
  }

  /** An outbox event, committed with the rest of the transaction. */
  async enqueue(event: EventEnvelope): Promise<void> {
    await enqueueEvent(pgSqlExecutor(this.client), event);
  }
}

/** Meter events and epoch tables (README.md "Metering, billing, gateway proxy"). */
export class MeteringRepo extends MeteringQueries {
  constructor(private readonly pool: pg.Pool) {
    super(pool);
  }

  /** Runs `fn` in one transaction: everything it wrote, outbox events included, commits or none does. */
  transaction<T>(fn: (tx: MeteringTransaction) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, (client) => fn(new MeteringTransaction(client)));
  }
}
