import { canonicalize } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { marketV1Integrity } from '@exchange/proto';
import type { AuditEntry } from './integrity.repo';
import type { Integrity, IntegrityStateName } from './integrity-states';

const S = marketV1Integrity.IntegrityState;

const TO_PROTO: Record<IntegrityStateName, marketV1Integrity.IntegrityState> = {
  normal: S.INTEGRITY_STATE_NORMAL,
  elevated: S.INTEGRITY_STATE_ELEVATED,
  restricted: S.INTEGRITY_STATE_RESTRICTED,
  halted: S.INTEGRITY_STATE_HALTED,
};

/** The requested state; unspecified or unknown → 400 validation_failed naming `state`. */
export function stateFromProto(value: marketV1Integrity.IntegrityState): IntegrityStateName {
  const found = (Object.entries(TO_PROTO) as Array<[IntegrityStateName, number]>).find(([, v]) => v === value);
  if (!found) throw errors.invalidArgument('validation_failed', 'state must be one of normal, elevated, restricted, halted', { field: 'state' });
  return found[0];
}

export function toProtoSnapshot(i: Integrity): marketV1Integrity.IntegritySnapshot {
  return {
    state: TO_PROTO[i.state],
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
