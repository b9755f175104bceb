import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { marketV1Events } from '@exchange/proto';
import type pg from 'pg';
import type { Caller } from '../domain/caller';
import { MARKET_EVENT_SOURCE } from '../events/market.events';
import { toProtoAudit, toProtoSnapshot } from './integrity.mapper';
import type { AuditEntry } from './integrity.repo';
import type { Integrity } from './integrity-states';

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
