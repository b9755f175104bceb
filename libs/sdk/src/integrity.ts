// Market integrity (operator): the state machine normal → elevated → restricted → halted, the
// kill switches, the erroneous-clear correction and the audit log. Anyone authenticated may read
// the state; every change needs the operator token and a reason (kept in the audit log).
import type { Contract } from './market-types';
import { MarketBase } from './market';
import type { Page, PageParams } from './pagination';
import type { Receipt } from './receipts';
import type { Idempotent } from './wallets';

export type IntegrityState = 'normal' | 'elevated' | 'restricted' | 'halted';
export type KillSwitchName = 'new_contracts' | 'awards' | 'settlements' | 'withdrawals' | 'faucet' | 'read_only';
export type IntegrityAuditAction = 'state_changed' | 'kill_switch_set' | 'erroneous_clear' | 'buyer_alias_updated' | 'resale_review_decided';

export interface KillSwitch {
  name: KillSwitchName;
  enabled: boolean;
  reason: string | null;
  set_by: string | null;
  updated_at: string | null;
}

export interface IntegritySnapshot {
  state: IntegrityState;
  since: string;
  reason: string | null;
  set_by: string | null;
  /** All six, in the order new_contracts, awards, settlements, withdrawals, faucet, read_only. */
  kill_switches: KillSwitch[];
  wallet_controls_synced: boolean;
}

export interface IntegrityAuditEntry {
  audit_id: string;
  action: IntegrityAuditAction;
  operator: string;
  reason: string;
  subject: string;
  details: Record<string, unknown>;
  created_at: string;
}

export interface SetIntegrityStateInput extends Idempotent {
  /** Any other state directly (an emergency halt is one call), up or down; the same state is 409 invalid_state. */
  state: IntegrityState;
  reason: string;
}

export interface SetKillSwitchInput extends Idempotent {
  name: KillSwitchName;
  enabled: boolean;
  reason: string;
}

export interface ErroneousClearInput extends Idempotent {
  contractId: string;
  reason: string;
}

export interface ErroneousClearResult {
  /** Status `corrected`. */
  contract: Contract;
  /** Kind `correction`, `corrects_receipt_id` = the settlement receipt. */
  receipt: Receipt;
}

export interface ListIntegrityAuditParams extends PageParams {
  action?: IntegrityAuditAction;
}

const BASE = '/v1/market-integrity';

export class IntegrityApi extends MarketBase {
  /** GET /v1/market-integrity/state. */
  get(): Promise<IntegritySnapshot> {
    return this.read(`${BASE}/state`);
  }

  /** POST /v1/market-integrity/state (operator). */
  setState(input: SetIntegrityStateInput): Promise<IntegritySnapshot> {
    return this.post(`${BASE}/state`, { state: input.state, reason: input.reason }, input.idempotencyKey);
  }

  /** POST /v1/market-integrity/kill-switches (operator). */
  setKillSwitch(input: SetKillSwitchInput): Promise<IntegritySnapshot> {
    return this.post(`${BASE}/kill-switches`, { name: input.name, enabled: input.enabled, reason: input.reason }, input.idempotencyKey);
  }

  /** POST /v1/market-integrity/erroneous-clear (operator): reverse a settled contract's settlement. */
  erroneousClear(input: ErroneousClearInput): Promise<ErroneousClearResult> {
    return this.post(`${BASE}/erroneous-clear`, { contract_id: input.contractId, reason: input.reason }, input.idempotencyKey);
  }

  /** GET /v1/market-integrity/audit (operator), newest first. */
  audit(params: ListIntegrityAuditParams = {}): Promise<Page<IntegrityAuditEntry>> {
    return this.read(`${BASE}/audit`, { limit: params.limit, cursor: params.cursor, action: params.action });
  }
}
