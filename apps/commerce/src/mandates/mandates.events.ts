import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { formatAmount } from '@exchange/platform';
import { commerceV1, commerceV1Events, commerceV1Wire, type DomainEnum } from '@exchange/proto';
import type pg from 'pg';
import type { Autonomy, AutonomyMode, MandateRecord, MandateStatus } from './mandate.model';
import { effectiveStatus } from './mandate-rules';

// Mandate → proto (the RPC answers and the event payloads share it) and the outbox writer: call it
// inside the transaction of the change. Payload: events.proto MandateChanged as JSON.

const mandateStatus: DomainEnum<typeof commerceV1Wire.mandateStatus, MandateStatus> = commerceV1Wire.mandateStatus;
export const autonomyMode: DomainEnum<typeof commerceV1Wire.autonomyMode, AutonomyMode> = commerceV1Wire.autonomyMode;

export function toProtoAutonomy(a: Autonomy): commerceV1.Autonomy {
  return {
    mode: autonomyMode.toProto(a.mode),
    stepUpThreshold: a.stepUpThreshold === null ? undefined : { amount: formatAmount(a.stepUpThreshold.amount), currency: a.stepUpThreshold.currency },
    approvalForNewMerchants: a.approvalForNewMerchants,
    dailyLimit: a.dailyLimit === null ? undefined : formatAmount(a.dailyLimit),
  };
}

/** The mandate as readers see it: amounts as decimals, status effective at `now`. */
export function toProtoMandate(m: MandateRecord, now: Date): commerceV1.Mandate {
  return {
    mandateId: m.mandateId,
    signerAgentId: m.signerAgentId,
    agentId: m.agentId,
    scopeMerchants: m.scope.merchants,
    scopeCategories: m.scope.categories,
    scopeSkus: m.scope.skus,
    perTransaction: formatAmount(m.limits.perTransaction),
    totalLimit: formatAmount(m.limits.total),
    currency: m.limits.currency,
    expiresAt: m.expiresAt,
    signature: m.signature,
    status: mandateStatus.toProto(effectiveStatus(m, now)),
    spent: formatAmount(m.spent),
    reserved: formatAmount(m.reserved),
    autonomy: toProtoAutonomy(m.autonomy),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

export type MandateVerb = 'created' | 'status_changed' | 'autonomy_updated';

/** exchange.commerce.mandate.<verb>, written to the outbox with the change. `actor`: "agent:<id>" or "operator". */
export async function enqueueMandateEvent(client: pg.ClientBase, verb: MandateVerb, m: MandateRecord, now: Date, actor: string): Promise<void> {
  const data = commerceV1Events.MandateChanged.toJSON({ mandate: toProtoMandate(m, now) });
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({ type: `exchange.commerce.mandate.${verb}`, source: 'commerce', subjectId: m.mandateId, actor, data }),
  );
}
