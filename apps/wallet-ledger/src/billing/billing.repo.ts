import type pg from 'pg';
import { withTransaction, type Queryable } from '@exchange/db';
import { enqueueEvent, pgSqlExecutor, type EventEnvelope } from '@exchange/events';
import { lockBillingPeriod } from '../data/period-lock';
import { big, date, str, strOrNull, type Row } from '../data/rows';
import type { BillingProjection, BillingProjectionStatus, PeriodReceipt, PeriodReceiptStatus } from './billing.model';
import type { StoredEpochPrice, StoredEpochTable, StoredMeterEvent } from './evidence';
import { MAX_PROJECTION_EVENTS, type PricedMeterEvent } from './projection';
import { contentJson, readContentJson } from './receipt-payload';
import { readOnlyNow } from '../data/controls';

function projectionFromRow(r: Row): BillingProjection {
  return {
    projectionId: str(r['projection_id']),
    agentId: str(r['agent_id']),
    period: str(r['period']),
    status: r['status'] as BillingProjectionStatus,
    figures: { ...readContentJson(r['content']), eventCount: Number(r['event_count']), eventsSha256: str(r['events_sha256']) },
    computedAt: date(r['computed_at']),
    periodReceiptId: strOrNull(r['period_receipt_id']),
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
  };
}

function receiptFromRow(r: Row, projection: BillingProjection): PeriodReceipt {
  return {
    periodReceiptId: str(r['period_receipt_id']),
    agentId: str(r['agent_id']),
    period: str(r['period']),
    status: r['status'] as PeriodReceiptStatus,
    projectionId: str(r['projection_id']),
    projection,
    objectId: strOrNull(r['object_id']),
    payloadJson: strOrNull(r['payload_json']),
    signature: strOrNull(r['signature']),
    signerPublicKey: strOrNull(r['signer_public_key']),
    emittedAt: r['emitted_at'] === null ? null : date(r['emitted_at']),
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
  };
}

/** The billing reads, on the pool or inside a transaction. */
export class BillingQueries {
  constructor(protected readonly db: Queryable) {}

  readOnly(): Promise<boolean> {
    return readOnlyNow(this.db);
  }

  /**
   * The agent's meter events of the period, each priced by its epoch table's price rows, at most
   * MAX_PROJECTION_EVENTS of them; `count` is the true number (a projection refuses more).
   */
  async pricedEvents(agentId: string, period: string): Promise<{ events: PricedMeterEvent[]; count: number }> {
    const { rows } = await this.db.query(
      `SELECT e.object_id, e.meter, e.epoch, e.occurred_at, e.quantity, p.unit_price, p.currency
         FROM meter_events e JOIN meter_epoch_prices p ON p.epoch = e.epoch AND p.meter = e.meter
        WHERE e.subject_agent_id = $1 AND e.period = $2
        ORDER BY e.occurred_at, e.object_id COLLATE "C" LIMIT $3`,
      [agentId, period, MAX_PROJECTION_EVENTS + 1],
    );
    const events = rows.map((r: Row) => ({
      objectId: str(r['object_id']),
      meter: str(r['meter']),
      epoch: str(r['epoch']),
      occurredAt: date(r['occurred_at']),
      quantity: big(r['quantity']),
      unitPrice: big(r['unit_price']),
      currency: str(r['currency']),
    }));
    if (events.length <= MAX_PROJECTION_EVENTS) return { events, count: events.length };
    const total = await this.db.query<{ n: string }>('SELECT count(*) AS n FROM meter_events WHERE subject_agent_id = $1 AND period = $2', [agentId, period]);
    return { events, count: Number(total.rows[0].n) };
  }

  async projection(projectionId: string, forUpdate = false): Promise<BillingProjection | undefined> {
    const { rows } = await this.db.query(`SELECT * FROM billing_projections WHERE projection_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [projectionId]);
    return rows[0] ? projectionFromRow(rows[0]) : undefined;
  }

  async receiptOf(agentId: string, period: string): Promise<PeriodReceipt | undefined> {
    const { rows } = await this.db.query('SELECT * FROM period_receipts WHERE agent_id = $1 AND period = $2', [agentId, period]);
    return rows[0] ? this.withProjection(rows[0]) : undefined;
  }

  async receipt(periodReceiptId: string): Promise<PeriodReceipt | undefined> {
    const { rows } = await this.db.query('SELECT * FROM period_receipts WHERE period_receipt_id = $1', [periodReceiptId]);
    return rows[0] ? this.withProjection(rows[0]) : undefined;
  }

  private async withProjection(row: Row): Promise<PeriodReceipt> {
    const projection = await this.projection(str(row['projection_id']));
    if (!projection) throw new Error(`period receipt ${str(row['period_receipt_id'])} points at no projection`);
    return receiptFromRow(row, projection);
  }

  /** Every stored meter event of the agent's period, as reconciliation re-checks them. */
  async storedEvents(agentId: string, period: string): Promise<StoredMeterEvent[]> {
    const { rows } = await this.db.query(
      'SELECT * FROM meter_events WHERE subject_agent_id = $1 AND period = $2 ORDER BY occurred_at, object_id COLLATE "C"',
      [agentId, period],
    );
    return rows.map((r: Row) => ({
      objectId: str(r['object_id']),
      signerAgentId: str(r['signer_agent_id']),
      subjectAgentId: str(r['subject_agent_id']),
      meter: str(r['meter']),
      quantity: big(r['quantity']),
      unit: str(r['unit']),
      occurredAt: date(r['occurred_at']),
      epoch: str(r['epoch']),
      ref: strOrNull(r['ref']),
      payloadJson: str(r['payload_json']),
      signature: str(r['signature']),
    }));
  }

  async epochTables(epochs: string[]): Promise<StoredEpochTable[]> {
    const { rows } = await this.db.query('SELECT * FROM meter_epoch_tables WHERE epoch = ANY($1::text[])', [epochs]);
    return rows.map((r: Row) => ({
      objectId: str(r['object_id']),
      epoch: str(r['epoch']),
      effectiveFrom: date(r['effective_from']),
      effectiveTo: date(r['effective_to']),
      currency: str(r['currency']),
      payloadJson: str(r['payload_json']),
      signature: str(r['signature']),
    }));
  }

  async epochPrices(epochs: string[]): Promise<Array<StoredEpochPrice & { epoch: string }>> {
    const { rows } = await this.db.query('SELECT * FROM meter_epoch_prices WHERE epoch = ANY($1::text[]) ORDER BY epoch, meter COLLATE "C"', [epochs]);
    return rows.map((r: Row) => ({
      epoch: str(r['epoch']),
      meter: str(r['meter']),
      effectiveFrom: date(r['effective_from']),
      effectiveTo: date(r['effective_to']),
      unitPrice: big(r['unit_price']),
      currency: str(r['currency']),
    }));
  }
}

/** Reads and writes inside one transaction (BillingRepo.transaction / inPeriod); events go to the outbox in it. */
export class BillingWrites extends BillingQueries {
  constructor(private readonly client: pg.PoolClient) {
    super(client);
  }

  async insertProjection(p: BillingProjection): Promise<void> {
    await this.db.query(
      `INSERT INTO billing_projections (projection_id, agent_id, period, status, content, event_count, events_sha256, computed_at, period_receipt_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        p.projectionId, p.agentId, p.period, p.status, JSON.stringify(contentJson(p.figures)), p.figures.eventCount, p.figures.eventsSha256,
        p.computedAt, p.periodReceiptId, p.createdAt, p.updatedAt,
      ],
    );
  }

  async setProjectionStatus(projectionId: string, status: BillingProjectionStatus, periodReceiptId: string | null, now: Date): Promise<void> {
    await this.db.query('UPDATE billing_projections SET status = $2, period_receipt_id = $3, updated_at = $4 WHERE projection_id = $1', [
      projectionId,
      status,
      periodReceiptId,
      now,
    ]);
  }

  /** Creates the draft receipt of (agent, period), or points the existing one at another projection. */
  async saveDraftReceipt(r: Pick<PeriodReceipt, 'periodReceiptId' | 'agentId' | 'period' | 'projectionId' | 'createdAt' | 'updatedAt'>): Promise<void> {
    await this.db.query(
      `INSERT INTO period_receipts (period_receipt_id, agent_id, period, status, projection_id, created_at, updated_at)
       VALUES ($1, $2, $3, 'draft', $4, $5, $6)
       ON CONFLICT (period_receipt_id) DO UPDATE SET projection_id = EXCLUDED.projection_id, updated_at = EXCLUDED.updated_at`,
      [r.periodReceiptId, r.agentId, r.period, r.projectionId, r.createdAt, r.updatedAt],
    );
  }

  async markEmitted(r: PeriodReceipt): Promise<void> {
    await this.db.query(
      `UPDATE period_receipts SET status = 'emitted', object_id = $2, payload_json = $3, signature = $4, signer_public_key = $5, emitted_at = $6, updated_at = $6
        WHERE period_receipt_id = $1`,
      [r.periodReceiptId, r.objectId, r.payloadJson, r.signature, r.signerPublicKey, r.emittedAt],
    );
  }

  async enqueue(event: EventEnvelope): Promise<void> {
    await enqueueEvent(pgSqlExecutor(this.client), event);
  }
}

/** Projections and period receipts: reads on the pool, writes in one transaction with their outbox events. */
export class BillingRepo {
  readonly reads: BillingQueries;

  constructor(private readonly pool: pg.Pool) {
    this.reads = new BillingQueries(pool);
  }

  transaction<T>(fn: (q: BillingWrites) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, (client) => fn(new BillingWrites(client)));
  }

  /** A transaction holding the billing-period lock of (agent, period): what ingest and emit serialise on. */
  inPeriod<T>(agentId: string, period: string, fn: (q: BillingWrites) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, async (client) => {
      await lockBillingPeriod(client, agentId, period);
      return fn(new BillingWrites(client));
    });
  }
}
