import { T } from '../wallets/wallets.schemas';
import { Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// wallet-ledger's CheckLedger report (operator, beyond the spec).

export const LedgerDiscrepancy = Type.Object(
  { kind: Type.String(), subject: Type.String(), expected: Type.String(), actual: Type.String(), detail: Type.String() },
  { additionalProperties: false },
);

export const LedgerCheckReport = Type.Object(
  {
    ok: Type.Boolean(),
    accounts_checked: Type.Integer(),
    entries_checked: Type.Integer(),
    postings_checked: Type.Integer(),
    global_sums: Type.Record(Type.String(), Type.String(), { description: 'Per currency, the sum of every account (must be "0")' }),
    discrepancies: Type.Array(LedgerDiscrepancy),
    checked_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'Reconciliation of every balance against the journal',
    examples: [
      {
        ok: true,
        accounts_checked: 12,
        entries_checked: 40,
        postings_checked: 86,
        global_sums: { CREDIT: '0' },
        discrepancies: [],
        checked_at: T,
      },
    ],
  },
);
export type LedgerCheckReportJson = Static<typeof LedgerCheckReport>;
