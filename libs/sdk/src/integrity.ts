// Market integrity (operator): the state machine normal → elevated → restricted → halted, the
// kill switches, the erroneous-clear correction and the audit log. Anyone authenticated may read
// the state; every change needs the operator token and a reason (kept in the audit log).
import { MarketBase } from './market-base';
import type { Page, PageParams } from './pagination';
import type { Idempotent } from './wallets';
import type { api, Narrow } from './wire';

/** `kill_switches`: all six, in the order new_contracts, awards, settlements, withdrawals, faucet, read_only. */
export type IntegritySnapshot = api.IntegritySnapshot;
export type KillSwitch = api.KillSwitch;
export type IntegrityState = IntegritySnapshot['state'];
export type KillSwitchName = KillSwitch['name'];
// The document states `action` as a string; the market writes one of these.
export type IntegrityAuditAction = 'state_changed' | 'kill_switch_set' | 'erroneous_clear' | 'buyer_alias_updated' | 'resale_review_decided';
export type IntegrityAuditEntry = Narrow<api.AuditEntry, { action: IntegrityAuditAction; details: Record<string, unknown> }>;

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

/** `contract` in status `corrected`; `receipt` of kind `correction` whose `corrects_receipt_id` is the settlement receipt. */
export type ErroneousClearResult = api.ErroneousClearResult;

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
    return this.post(`${BASE}/state`, { state: input.state, reason: input.reason } satisfies api.SetIntegrityStateRequest, input.idempotencyKey);
  }

  /** POST /v1/market-integrity/kill-switches (operator). */
  setKillSwitch(input: SetKillSwitchInput): Promise<IntegritySnapshot> {
    return this.post(`${BASE}/kill-switches`, { name: input.name, enabled: input.enabled, reason: input.reason } satisfies api.SetKillSwitchRequest, input.idempotencyKey);
  }

  /** POST /v1/market-integrity/erroneous-clear (operator): reverse a settled contract's settlement. */
  erroneousClear(input: ErroneousClearInput): Promise<ErroneousClearResult> {
    return this.post(`${BASE}/erroneous-clear`, { contract_id: input.contractId, reason: input.reason } satisfies api.ErroneousClearRequest, input.idempotencyKey);
  }

  /** GET /v1/market-integrity/audit (operator), newest first. */
  audit(params: ListIntegrityAuditParams = {}): Promise<Page<IntegrityAuditEntry>> {
    return this.read(`${BASE}/audit`, { limit: params.limit, cursor: params.cursor, action: params.action });
  }
}
