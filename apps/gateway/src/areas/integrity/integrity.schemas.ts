import { marketV1IntegrityWire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { Contract } from '../contracts/contracts.schemas';
import { Receipt } from '../receipts/receipts.schemas';
import { IdempotencyKey } from '../wallets/wallets.schemas';

// REST shapes of market integrity (issue 6 §6): the state machine, the kill switches, the
// erroneous-clear correction and the audit log. Operators change them; everyone may read the state.

export const INTEGRITY_STATES = marketV1IntegrityWire.integrityState.names;
export const KILL_SWITCH_NAMES = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'] as const;
export const AUDIT_ACTIONS = ['state_changed', 'kill_switch_set', 'erroneous_clear', 'buyer_alias_updated', 'resale_review_decided'] as const;

export type IntegrityStateName = (typeof INTEGRITY_STATES)[number];
export type KillSwitchName = (typeof KILL_SWITCH_NAMES)[number];

const T = '2026-11-21T18:00:00.000Z';
const OPERATOR = 'operator:default';
const CTR = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

const firstExample = (schema: object): Record<string, unknown> => (schema as { examples: Array<Record<string, unknown>> }).examples[0] ?? {};

/** 1–500 characters, kept in the audit log with the operator. */
export const IntegrityReason = Type.String({ minLength: 1, maxLength: 500, description: 'Why (1–500 characters; kept in the audit log)' });
const Key = Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` });

export const KillSwitch = Type.Object(
  {
    name: StringEnum(KILL_SWITCH_NAMES),
    enabled: Type.Boolean(),
    reason: Nullable(Type.String()),
    set_by: Nullable(Type.String({ description: '`operator:<name>`' })),
    updated_at: Nullable(Timestamp),
  },
  { additionalProperties: false },
);

const snapshotExample = {
  state: 'elevated',
  since: T,
  reason: 'unusual settlement volume',
  set_by: OPERATOR,
  kill_switches: KILL_SWITCH_NAMES.map((name) =>
    name === 'faucet'
      ? { name, enabled: true, reason: 'faucet abuse', set_by: OPERATOR, updated_at: T }
      : { name, enabled: false, reason: null, set_by: null, updated_at: null },
  ),
  wallet_controls_synced: true,
};

export const IntegritySnapshot = Type.Object(
  {
    state: StringEnum(INTEGRITY_STATES, {
      description: '`restricted` blocks new contracts (503 `market_restricted`); `halted` also awards and settlements (503 `market_halted`)',
    }),
    since: Timestamp,
    reason: Nullable(Type.String()),
    set_by: Nullable(Type.String({ description: '`operator:<name>`' })),
    kill_switches: Type.Array(KillSwitch, {
      description: 'All six, in the order new_contracts, awards, settlements, withdrawals, faucet, read_only',
    }),
    wallet_controls_synced: Type.Boolean({ description: 'False while wallet-ledger has not yet acknowledged the current switches' }),
  },
  { additionalProperties: false, description: 'The market-wide integrity state and kill switches', examples: [snapshotExample] },
);
export type IntegritySnapshotJson = Static<typeof IntegritySnapshot>;

export const SetIntegrityStateBody = Type.Object(
  {
    state: StringEnum(INTEGRITY_STATES, {
      description:
        'Any other state, directly (normal → elevated → restricted → halted; normal → halted is one call), up or down; the same state again is 409 `invalid_state`',
    }),
    reason: IntegrityReason,
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ state: 'elevated', reason: 'unusual settlement volume' }] },
);
export type SetIntegrityStateBodyJson = Static<typeof SetIntegrityStateBody>;

export const SetKillSwitchBody = Type.Object(
  { name: StringEnum(KILL_SWITCH_NAMES), enabled: Type.Boolean(), reason: IntegrityReason, idempotency_key: Key },
  { additionalProperties: false, examples: [{ name: 'faucet', enabled: true, reason: 'faucet abuse' }] },
);
export type SetKillSwitchBodyJson = Static<typeof SetKillSwitchBody>;

export const ErroneousClearBody = Type.Object(
  {
    contract_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'A settled contract', examples: [CTR] }),
    reason: IntegrityReason,
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ contract_id: CTR, reason: 'settled on a forged verification report' }] },
);
export type ErroneousClearBodyJson = Static<typeof ErroneousClearBody>;

export const ErroneousClearResult = Type.Object(
  {
    contract: { ...Contract, description: 'The contract, now `corrected`' },
    receipt: { ...Receipt, description: 'The correction receipt (kind `correction`, `corrects_receipt_id` = the settlement receipt)' },
  },
  {
    additionalProperties: false,
    description: 'The corrected contract and its correction receipt',
    examples: [
      {
        contract: {
          ...firstExample(Contract),
          status: 'corrected',
          escrow_status: 'settled',
          receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8f',
          corrected_at: T,
          correction_receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8f',
          correction_reason: 'settled on a forged verification report',
        },
        receipt: {
          ...firstExample(Receipt),
          receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8f',
          kind: 'correction',
          corrects_receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
          reason: 'settled on a forged verification report',
        },
      },
    ],
  },
);
export type ErroneousClearResultJson = Static<typeof ErroneousClearResult>;

export const ListAuditQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor), action: Type.Optional(StringEnum(AUDIT_ACTIONS)) },
  { additionalProperties: false },
);

const auditExample = {
  audit_id: 'iau_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  action: 'kill_switch_set',
  operator: OPERATOR,
  reason: 'faucet abuse',
  subject: 'faucet',
  details: { before: { enabled: false }, after: { enabled: true } },
  created_at: T,
};
export const AuditEntry = Type.Object(
  {
    audit_id: Type.String(),
    action: Type.String({ description: AUDIT_ACTIONS.join(' | ') }),
    operator: Type.String(),
    reason: Type.String(),
    subject: Type.String({ description: 'Contract id, switch name or state, depending on the action' }),
    details: Type.Unknown({ description: 'What changed (before/after), a JSON object' }),
    created_at: Timestamp,
  },
  { additionalProperties: false, examples: [auditExample] },
);
export type AuditEntryJson = Static<typeof AuditEntry>;
export const AuditPage = Type.Object(
  { data: Type.Array(AuditEntry), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Audit entries, newest first', examples: [{ data: [auditExample], next_cursor: null }] },
);
