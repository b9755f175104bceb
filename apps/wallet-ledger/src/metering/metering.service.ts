import { ingestWindow, periodOf } from '../domain/billing-period';
import type { Trace } from '../domain/metering.ports';
import { walletErrors } from '../domain/wallet.errors';
import type { Caller } from '../events/wallet.events';
import type { WalletAreasDeps } from '../service/area-wiring';
import { firstOverlap, METER_EPOCH_TABLE_TYPE, parseEpochTable, rangeCovers, type MeterEpochTable } from './epoch-table';
import { canView, METER_EVENT_TYPE, parseSignedMeterEvent, type MeterEvent, type MeterEventFields } from './meter-event';
import { meteringErrors } from './metering.errors';
import { meteringEvents } from './metering.events';
import { MeteringRepo, type EpochPriceRow } from './metering.repo';
import { EXCHANGE_SIGNER, registryObjectId } from './object-id';

export interface IngestMeterEventCommand {
  signerAgentId: string;
  payloadJson: string;
  signature: string;
}

export interface CreateMeterEpochTableCommand {
  epoch: string;
  effectiveFrom: Date | undefined;
  effectiveTo: Date | undefined;
  prices: Array<{ meter: string; unitPrice: string }>;
  currency: string | undefined;
}

export type MeteringDeps = Pick<WalletAreasDeps, 'agents' | 'clock' | 'objects' | 'afterCommit'> & { repo: MeteringRepo };

/** Meter events (agent-signed usage, priced by an epoch) and epoch tables (operator). */
export class MeteringService {
  constructor(private readonly d: MeteringDeps) {}

  /** IngestMeterEvent: validate, check period, subject and epoch, dedup, store in the registry, then keep and announce it. */
  async ingestMeterEvent(cmd: IngestMeterEventCommand, caller: Caller, trace: Trace): Promise<{ event: MeterEvent; created: boolean }> {
    const signed = parseSignedMeterEvent(cmd);
    const f = signed.fields;
    const now = this.d.clock();
    const window = ingestWindow(f.occurredAt, now);
    if (window === 'future') throw meteringErrors.inFuture(f.occurredAt);
    const period = periodOf(f.occurredAt);
    if (window === 'closed') throw meteringErrors.periodClosed(period, 'too_old');
    await this.d.agents.get(f.subjectAgentId);
    const price = await this.priceOf(f);

    const objectId = registryObjectId(METER_EVENT_TYPE, signed.payload, signed.signerAgentId);
    const known = await this.d.repo.meterEvent(objectId);
    if (known) return { event: known, created: false };
    // Checked again under the lock below; refusing here keeps a read-only exchange from storing in the registry.
    if (await this.d.repo.readOnly()) throw walletErrors.readOnly();

    const stored = await this.d.objects.storeAgentObject(
      {
        type: METER_EVENT_TYPE,
        payloadJson: signed.payloadJson,
        signerAgentId: signed.signerAgentId,
        signature: signed.signature,
        visibility: 'parties',
        parties: [...new Set([signed.signerAgentId, f.subjectAgentId])],
        tags: [],
      },
      trace,
    );
    if (stored.objectId !== objectId || stored.payloadJson !== signed.payloadJson) {
      throw new Error(`the registry stored meter event ${objectId} as ${stored.objectId}`);
    }
    const event: MeterEvent = {
      ...f,
      objectId,
      signerAgentId: signed.signerAgentId,
      // The registry's copy: the same object stored before keeps the signature it was stored with.
      signature: stored.signature,
      payloadJson: signed.payloadJson,
      period,
      unitPrice: price.unitPrice,
      currency: price.currency,
      ingestedAt: now,
    };

    const result = await this.d.repo.transaction(async (tx) => {
      await tx.lockBillingPeriod(f.subjectAgentId, period);
      if (await tx.readOnly()) throw walletErrors.readOnly();
      if (await tx.periodEmitted(f.subjectAgentId, period)) throw meteringErrors.periodClosed(period, 'receipt_emitted');
      if (!(await tx.insertMeterEvent(event))) {
        // A concurrent ingest of the same event committed first (the lock ordered us after it).
        const first = await tx.meterEvent(objectId);
        if (!first) throw new Error(`meter event ${objectId} conflicted but is not there`);
        return { event: first, created: false };
      }
      await tx.enqueue(meteringEvents.meterEventIngested(event, caller));
      return { event, created: true };
    });
    if (result.created) this.d.afterCommit();
    return result;
  }

  /** GetMeterEvent: an agent viewer sees only events it signed or is billed for. */
  async getMeterEvent(objectId: string, viewerAgentId: string | null): Promise<MeterEvent> {
    if (objectId === '') throw walletErrors.validationFailed('object_id is required', { field: 'object_id' });
    const event = await this.d.repo.meterEvent(objectId);
    if (!event || !canView(event, viewerAgentId)) throw meteringErrors.meterEventNotFound(objectId);
    return event;
  }

  /** CreateMeterEpochTable: immutable, no overlap per meter, exchange-signed in the registry inside the transaction. */
  async createMeterEpochTable(cmd: CreateMeterEpochTableCommand, caller: Caller, trace: Trace): Promise<{ table: MeterEpochTable; created: boolean }> {
    const { payload, ...draft } = parseEpochTable(cmd);
    const now = this.d.clock();
    const result = await this.d.repo.transaction(async (tx) => {
      await tx.lockEpochTables();
      if (await tx.readOnly()) throw walletErrors.readOnly();
      const existing = await tx.epochTableByName(draft.epoch);
      if (existing) {
        if (existing.payloadJson === draft.payloadJson) return { table: existing, created: false };
        throw meteringErrors.epochExists(draft.epoch, existing.objectId);
      }
      const priced = await tx.pricesOfMeters(draft.prices.map((p) => p.meter));
      const clash = firstOverlap({ from: draft.effectiveFrom, to: draft.effectiveTo }, priced);
      if (clash) throw meteringErrors.epochOverlap(clash.meter, clash.epoch);

      // Inside the transaction: a registry failure rolls everything back (the lock is held meanwhile).
      const stored = await this.d.objects.storeExchangeObject(
        { type: METER_EPOCH_TABLE_TYPE, payloadJson: draft.payloadJson, visibility: 'operator', parties: [], tags: [] },
        trace,
      );
      const objectId = registryObjectId(METER_EPOCH_TABLE_TYPE, payload, EXCHANGE_SIGNER);
      if (stored.objectId !== objectId || stored.payloadJson !== draft.payloadJson) {
        throw new Error(`the registry stored epoch table ${objectId} as ${stored.objectId}`);
      }
      const table: MeterEpochTable = { ...draft, objectId, signature: stored.signature, signerPublicKey: stored.signerPublicKey, createdAt: now };
      await tx.insertEpochTable(table);
      await tx.enqueue(meteringEvents.meterEpochTableCreated(table, caller));
      return { table, created: true };
    });
    if (result.created) this.d.afterCommit();
    return result;
  }

  async getMeterEpochTable(objectId: string): Promise<MeterEpochTable> {
    if (objectId === '') throw walletErrors.validationFailed('object_id is required', { field: 'object_id' });
    const table = await this.d.repo.epochTable(objectId);
    if (!table) throw meteringErrors.epochTableNotFound(objectId);
    return table;
  }

  /** The epoch's price of the meter at occurred_at: 404 epoch_not_found, 409 epoch_mismatch. */
  private async priceOf(f: MeterEventFields): Promise<EpochPriceRow> {
    const price = await this.d.repo.price(f.epoch, f.meter);
    if (!price) {
      if (!(await this.d.repo.epochExists(f.epoch))) throw meteringErrors.epochNotFound(f.epoch);
      throw meteringErrors.epochMismatch(f.epoch, f.meter, 'meter_not_priced');
    }
    if (!rangeCovers({ from: price.effectiveFrom, to: price.effectiveTo }, f.occurredAt)) throw meteringErrors.epochMismatch(f.epoch, f.meter, 'not_covered');
    return price;
  }
}

/** Builds the area's service from the wallet's wiring (src/grpc/server.ts), taking only what it uses. */
export function createMeteringService(d: WalletAreasDeps): MeteringService {
  return new MeteringService({ agents: d.agents, clock: d.clock, objects: d.objects, afterCommit: d.afterCommit, repo: new MeteringRepo(d.pool) });
}
