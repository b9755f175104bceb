import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { canonicalize } from '@exchange/crypto';
import { marketV1Events, marketV1IntegrityWire, type marketV1Integrity, type DomainEnum } from '@exchange/proto';
import type pg from 'pg';
import type { Caller } from '../domain/caller';
import { MARKET_EVENT_SOURCE } from '../events/market.events';
import type { AuditEntry } from './integrity.repo';
import type { Integrity, IntegrityStateName } from './integrity-states';

export type IntegrityEventAction = 'state_changed' | 'kill_switch_set' | 'erroneous_clear';

/** exchange.market.integrity.<action>: call inside the transaction of the change (with its audit row). */
export async function integrityChanged(client: pg.ClientBase, audit: AuditEntry, integrity: Integrity, caller: Caller): Promise<void> {
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({
      type: `exchange.market.integrity.${audit.action}`,
      source: MARKET_EVENT_SOURCE,
      subjectId: audit.subject,
      actor: caller.actor,
      traceId: caller.traceId,
      data: marketV1Events.IntegrityChanged.toJSON({ audit: toProtoAudit(audit), integrity: toProtoSnapshot(integrity) }),
    }),
  );
}

// domain → proto, shared with the gRPC answers (integrity.mapper). The state through the generated
// wire table, typed with the domain's state names (which must be exactly its wire names).
export const integrityState: DomainEnum<typeof marketV1IntegrityWire.integrityState, IntegrityStateName> = marketV1IntegrityWire.integrityState;

export function toProtoSnapshot(i: Integrity): marketV1Integrity.IntegritySnapshot {
  return {
    state: integrityState.toProto(i.state),
    since: i.since,
    reason: i.reason ?? undefined,
    setBy: i.setBy ?? undefined,
    killSwitches: i.killSwitches.map((k) => ({
      name: k.name,
      enabled: k.enabled,
      reason: k.reason ?? undefined,
      setBy: k.setBy ?? undefined,
      updatedAt: k.updatedAt ?? undefined,
    })),
    walletControlsSynced: i.walletSyncedVersion >= i.walletControlsVersion,
  };
}

export function toProtoAudit(e: AuditEntry): marketV1Integrity.IntegrityAuditEntry {
  return {
    auditId: e.auditId,
    action: e.action,
    operator: e.operator,
    reason: e.reason,
    subject: e.subject,
    detailsJson: canonicalize(e.details),
    createdAt: e.createdAt,
  };
}
