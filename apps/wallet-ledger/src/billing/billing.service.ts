import { verifyCanonical } from '@exchange/crypto';
import { isDomainError, newId, errors } from '@exchange/platform';
import { parseBegunPeriod, parsePeriod, periodEnded } from '../domain/billing-period';
import type { AgentDirectory } from '../domain/ledger.ports';
import type { SignedObjectStore, Trace } from '../domain/metering.ports';
import { walletErrors } from '../domain/wallet.errors';
import type { Caller } from '../events/wallet.events';
import type { WalletAreasDeps } from '../service/area-wiring';
import { requireText } from '../service/use-case';
import { billingEvents } from './billing.events';
import type { BillingProjection, PeriodReceipt, Reconciliation } from './billing.model';
import { BillingRepo, type BillingQueries } from './billing.repo';
import { checkEpochTable, checkMeterEvents, type CheckedMeterEvent } from './evidence';
import { assertProjectionSize, projectEvents, sameFigures, type ProjectionFigures } from './projection';
import { assertReceiptFits, parseReceiptPayload, receiptPayload, RECEIPT_TYPE, type ReceiptDocument } from './receipt-payload';
import { reconcile } from './reconciliation';

export interface ProjectionCommand {
  agentId: string;
  period: string;
}

export type ReconcileCommand = { periodReceiptId: string } | { presented: { payloadJson: string; signature: string } } | Record<string, never>;

export interface BillingDeps {
  repo: Pick<BillingRepo, 'reads' | 'transaction' | 'inPeriod'>;
  agents: Pick<AgentDirectory, 'get'>;
  clock: () => Date;
  /** The exchange key's public half: what the registry signs receipts and epoch tables with. */
  signer: { publicKey: string };
  objects: Pick<SignedObjectStore, 'storeExchangeObject'>;
  /** Wakes the outbox relay once a change (and its event) is committed. */
  afterCommit: () => void;
}

/**
 * Billing (operator): a projection prices an agent's period from its meter events; attached to the
 * period receipt, it is what emit signs once the month has ended — if nothing changed since. Emit
 * moves no money: the receipt is a statement. Reconciliation re-checks a receipt against the
 * signed evidence (README.md "Billing").
 */
export class BillingService {
  constructor(private readonly ctx: BillingDeps) {}

  async createProjection(req: ProjectionCommand, caller: Caller): Promise<BillingProjection> {
    const agentId = requireText(req.agentId, 'agent_id');
    const now = this.ctx.clock();
    const { period } = parseBegunPeriod(req.period, now);
    await this.ctx.agents.get(agentId);
    const projection = await this.ctx.repo.transaction(async (q) => {
      await refuseReadOnly(q);
      const p: BillingProjection = {
        projectionId: newId('prj'),
        agentId,
        period,
        status: 'draft',
        figures: await figuresNow(q, agentId, period),
        computedAt: now,
        periodReceiptId: null,
        createdAt: now,
        updatedAt: now,
      };
      await q.insertProjection(p);
      await q.enqueue(billingEvents.projectionCreated(p, caller));
      return p;
    });
    this.ctx.afterCommit();
    return projection;
  }

  async attachProjection(req: { projectionId: string }, caller: Caller): Promise<PeriodReceipt> {
    const projectionId = requireText(req.projectionId, 'projection_id');
    const found = await this.ctx.repo.reads.projection(projectionId);
    if (!found) throw errors.notFound('billing_projection', projectionId);
    const now = this.ctx.clock();
    const result = await this.ctx.repo.inPeriod(found.agentId, found.period, async (q) => {
      await refuseReadOnly(q);
      const projection = (await q.projection(projectionId, true)) ?? found;
      const receipt = await q.receiptOf(projection.agentId, projection.period);
      if (receipt?.status === 'emitted') throw errors.invalidState('period_receipt', 'emitted', 'draft');
      if (receipt && receipt.projectionId === projectionId) return { receipt, changed: false };
      if (projection.status !== 'draft') throw errors.invalidState('billing_projection', projection.status, 'attached');
      const periodReceiptId = receipt?.periodReceiptId ?? newId('prc');
      if (receipt) await q.setProjectionStatus(receipt.projectionId, 'superseded', receipt.periodReceiptId, now);
      await q.saveDraftReceipt({ periodReceiptId, agentId: projection.agentId, period: projection.period, projectionId, createdAt: receipt?.createdAt ?? now, updatedAt: now });
      await q.setProjectionStatus(projectionId, 'attached', periodReceiptId, now);
      const attached = await mustReceipt(q, projection.agentId, projection.period);
      await q.enqueue(billingEvents.projectionAttached(attached.projection, caller));
      return { receipt: attached, changed: true };
    });
    if (result.changed) this.ctx.afterCommit();
    return result.receipt;
  }

  async emitReceipt(req: ProjectionCommand, caller: Caller, trace: Trace): Promise<{ receipt: PeriodReceipt; created: boolean }> {
    const agentId = requireText(req.agentId, 'agent_id');
    const { period } = parsePeriod(req.period);
    const result = await this.ctx.repo.inPeriod(agentId, period, async (q) => {
      const receipt = await q.receiptOf(agentId, period);
      if (!receipt) throw errors.failedPrecondition('projection_not_attached', `no billing projection is attached to the period receipt of ${agentId} for ${period}`);
      if (receipt.status === 'emitted') return { receipt, created: false };
      const now = this.ctx.clock();
      if (!periodEnded(period, now)) {
        const endsAt = parsePeriod(period).end.toISOString();
        throw errors.failedPrecondition('period_not_ended', `period ${period} ends at ${endsAt}; its receipt is emitted after that`, { ends_at: endsAt });
      }
      await refuseReadOnly(q);
      // Under the period lock no meter event of (agent, period) can arrive until commit: what is
      // compared here is exactly what the receipt closes.
      const figures = await figuresNow(q, agentId, period);
      if (!sameFigures(figures, receipt.projection.figures)) {
        throw errors.failedPrecondition('projection_stale', 'meter events changed since the attached projection was computed; create and attach a new one', {
          projection_id: receipt.projectionId,
          event_count: figures.eventCount,
        });
      }
      const payload = receiptPayload({ ...receipt, figures: receipt.projection.figures, computedAt: receipt.projection.computedAt, emittedAt: now });
      const stored = await this.ctx.objects.storeExchangeObject(
        { type: RECEIPT_TYPE, payloadJson: JSON.stringify(payload), visibility: 'parties', parties: [agentId], tags: [] },
        trace,
      );
      const emitted: PeriodReceipt = {
        ...receipt,
        status: 'emitted',
        objectId: stored.objectId,
        payloadJson: stored.payloadJson,
        signature: stored.signature,
        signerPublicKey: stored.signerPublicKey,
        emittedAt: now,
        updatedAt: now,
        projection: { ...receipt.projection, status: 'emitted', updatedAt: now },
      };
      await q.markEmitted(emitted);
      await q.setProjectionStatus(receipt.projectionId, 'emitted', receipt.periodReceiptId, now);
      await q.enqueue(billingEvents.receiptEmitted(emitted, caller));
      return { receipt: emitted, created: true };
    });
    if (result.created) this.ctx.afterCommit();
    return result;
  }

  /** Read-only: no state change, no event. */
  async reconcileReceipt(req: ReconcileCommand): Promise<Reconciliation> {
    const { stored, payload, receipt, signature } = await this.receiptToReconcile(req);
    const reads = this.ctx.repo.reads;
    const events = await this.checkedEvents(stored.agentId, stored.period);
    const epochs = [...new Set(events.map((e) => e.epoch))].sort();
    const [tables, prices] = await Promise.all([reads.epochTables(epochs), reads.epochPrices(epochs)]);
    const signatureValid = verifyCanonical(payload, signature, this.ctx.signer.publicKey);
    const checkedEpochs = epochs.map((epoch) =>
      checkEpochTable(
        epoch,
        tables.find((t) => t.epoch === epoch),
        prices.filter((p) => p.epoch === epoch),
        this.ctx.signer.publicKey,
      ),
    );
    const result = reconcile({ receipt, signatureValid, events, epochs: checkedEpochs });
    // The stored receipt names what is reconciled: a presented payload claiming another agent or
    // period fails its signature, it does not choose the meter events.
    return { periodReceiptId: stored.periodReceiptId, agentId: stored.agentId, period: stored.period, signatureValid, ...result, reconciledAt: this.ctx.clock() };
  }

  /** The stored receipt (404, must be emitted) and the payload to check: its own, or the one presented for it. */
  private async receiptToReconcile(req: ReconcileCommand): Promise<{ stored: PeriodReceipt; payload: unknown; receipt: ReceiptDocument; signature: string }> {
    const presented = 'presented' in req ? { ...parseReceiptPayload(req.presented.payloadJson, 'presented.payload_json'), signature: req.presented.signature } : undefined;
    let periodReceiptId: string;
    if ('periodReceiptId' in req) periodReceiptId = requireText(req.periodReceiptId, 'period_receipt_id');
    else if (presented) periodReceiptId = presented.receipt.periodReceiptId;
    else throw walletErrors.validationFailed('period_receipt_id or presented is required', { field: 'receipt' });
    const stored = await this.ctx.repo.reads.receipt(periodReceiptId);
    if (!stored) throw errors.notFound('period_receipt', periodReceiptId);
    if (stored.status !== 'emitted' || stored.payloadJson === null || stored.signature === null) throw errors.invalidState('period_receipt', stored.status, 'emitted');
    return { stored, ...(presented ?? { ...parseReceiptPayload(stored.payloadJson), signature: stored.signature }) };
  }

  /** The agent's stored events of the period, each re-checked with its signer's keys (an unknown signer has none). */
  private async checkedEvents(agentId: string, period: string): Promise<CheckedMeterEvent[]> {
    const rows = await this.ctx.repo.reads.storedEvents(agentId, period);
    const keys = new Map<string, string[]>();
    for (const signer of new Set(rows.map((r) => r.signerAgentId))) {
      try {
        keys.set(signer, (await this.ctx.agents.get(signer)).pubkeys);
      } catch (err) {
        if (!(isDomainError(err) && err.code === 'agent_not_found')) throw err;
        keys.set(signer, []);
      }
    }
    return checkMeterEvents(rows, (signer) => keys.get(signer) ?? []);
  }
}

async function refuseReadOnly(q: BillingQueries): Promise<void> {
  if (await q.readOnly()) throw walletErrors.readOnly();
}

/** The period's projection from its meter events as stored now (409 projection_too_large past the cap). */
async function figuresNow(q: BillingQueries, agentId: string, period: string): Promise<ProjectionFigures> {
  const { events, count } = await q.pricedEvents(agentId, period);
  assertProjectionSize(count);
  const figures = projectEvents(events);
  assertReceiptFits(figures);
  return figures;
}

async function mustReceipt(q: BillingQueries, agentId: string, period: string): Promise<PeriodReceipt> {
  const receipt = await q.receiptOf(agentId, period);
  if (!receipt) throw new Error(`the period receipt of ${agentId} for ${period} vanished inside its transaction`);
  return receipt;
}

/** Builds the area's service from the wallet's wiring (src/grpc/server.ts), taking only what it uses. */
export function createBillingService(d: WalletAreasDeps): BillingService {
  return new BillingService({ repo: new BillingRepo(d.pool), agents: d.agents, clock: d.clock, signer: d.signer, objects: d.objects, afterCommit: d.afterCommit });
}
