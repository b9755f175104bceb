import { marketV1Integrity, marketV1IntegrityWire } from '@exchange/proto';
import type { AuditEntryJson, IntegrityStateName, IntegritySnapshotJson, KillSwitchName } from './integrity.schemas';
import { KILL_SWITCH_NAMES } from './integrity.schemas';
import { contractChecks } from '../../lib/mapper-kit';
import { MarketContractError } from '../../lib/mapper-kit';

// Proto ⇄ REST for market integrity: `INTEGRITY_STATE_HALTED` ⇄ `halted` (the table generated
// from integrity.proto), absent optionals ⇄ null, `details_json` ⇄ `details` (parsed). Pure
// functions, no I/O.

const STATE = marketV1IntegrityWire.integrityState;
const { required, enumToJson, parsedJson } = contractChecks((what) => new MarketContractError(what));

export const integrityStateFromJson = (state: IntegrityStateName): marketV1Integrity.IntegrityState => STATE.toProto(state);

const isSwitchName = (name: string): name is KillSwitchName => (KILL_SWITCH_NAMES as readonly string[]).includes(name);

export function snapshotToJson(snapshot: marketV1Integrity.IntegritySnapshot | undefined): IntegritySnapshotJson {
  const s = required(snapshot, 'integrity snapshot');
  return {
    state: enumToJson(STATE, s.state, 'integrity state'),
    since: required(s.since, 'integrity since').toISOString(),
    reason: s.reason ?? null,
    set_by: s.setBy ?? null,
    kill_switches: s.killSwitches.map((k) => {
      if (!isSwitchName(k.name)) throw new MarketContractError('kill switch name');
      return {
        name: k.name,
        enabled: k.enabled,
        reason: k.reason ?? null,
        set_by: k.setBy ?? null,
        updated_at: k.updatedAt ? k.updatedAt.toISOString() : null,
      };
    }),
    wallet_controls_synced: s.walletControlsSynced,
  };
}

export function auditEntryToJson(entry: marketV1Integrity.IntegrityAuditEntry): AuditEntryJson {
  const details = entry.detailsJson === '' ? {} : parsedJson(entry.detailsJson, 'audit details_json');
  return {
    audit_id: entry.auditId,
    action: entry.action,
    operator: entry.operator,
    reason: entry.reason,
    subject: entry.subject,
    details,
    created_at: required(entry.createdAt, 'audit created_at').toISOString(),
  };
}

/** What the gateway's guard needs from a snapshot: is read-only on, and which switches are. */
export interface GuardView {
  readOnly: boolean;
  enabledSwitches: ReadonlySet<string>;
}

export function guardViewOf(snapshot: marketV1Integrity.IntegritySnapshot | undefined): GuardView {
  const enabled = new Set((snapshot?.killSwitches ?? []).filter((k) => k.enabled).map((k) => k.name));
  return { readOnly: enabled.has('read_only'), enabledSwitches: enabled };
}
