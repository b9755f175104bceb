import type pg from 'pg';
import { decodeCursor, type CursorKey } from '@exchange/platform';
import type { Controls, KillSwitch } from '../domain/controls';
import type { Receipt, ReceiptKind } from '../domain/receipt';
import type { DepositStatus, HoldStatus, WithdrawalStatus } from '../domain/state-machine';
import type {
  Balance,
  Deposit,
  DepositMethod,
  Hold,
  PayoutDestination,
  PayoutDestinationType,
  Withdrawal,
} from '../domain/wallet.model';

type Row = Record<string, unknown>;
const big = (v: unknown) => BigInt(v as string);
const bigOrNull = (v: unknown) => (v === null ? null : BigInt(v as string));
const str = (v: unknown) => v as string;
const strOrNull = (v: unknown) => (v === null ? null : (v as string));
const date = (v: unknown) => v as Date;

export function holdFromRow(r: Row): Hold {
  return {
    holdId: str(r['hold_id']),
    agentId: str(r['agent_id']),
    amount: big(r['amount']),
    currency: str(r['currency']),
    status: r['status'] as HoldStatus,
    expiresAt: (r['expires_at'] as Date | null) ?? null,
    reference: strOrNull(r['reference']),
    consumedAmount: bigOrNull(r['consumed_amount']),
    releasedAmount: bigOrNull(r['released_amount']),
    consumedToAgentId: strOrNull(r['consumed_to_agent_id']),
    journalEntryIds: (r['journal_entry_ids'] as string[] | null) ?? [],
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
    controller: str(r['controller']),
  };
}

export function depositFromRow(r: Row): Deposit {
  return {
    depositId: str(r['deposit_id']),
    agentId: str(r['agent_id']),
    amount: big(r['amount']),
    currency: str(r['currency']),
    method: r['method'] as DepositMethod,
    reference: strOrNull(r['reference']),
    status: r['status'] as DepositStatus,
    journalEntryId: strOrNull(r['journal_entry_id']),
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
  };
}

export function payoutDestinationFromRow(r: Row): PayoutDestination {
  return {
    payoutDestinationId: str(r['payout_destination_id']),
    agentId: str(r['agent_id']),
    type: r['type'] as PayoutDestinationType,
    details: r['details'] as Record<string, string>,
    label: str(r['label']),
    createdAt: date(r['created_at']),
  };
}

export function withdrawalFromRow(r: Row): Withdrawal {
  return {
    withdrawalId: str(r['withdrawal_id']),
    agentId: str(r['agent_id']),
    amount: big(r['amount']),
    currency: str(r['currency']),
    payoutDestinationId: str(r['payout_destination_id']),
    status: r['status'] as WithdrawalStatus,
    failureReason: strOrNull(r['failure_reason']),
    journalEntryIds: (r['journal_entry_ids'] as string[] | null) ?? [],
    createdAt: date(r['created_at']),
    updatedAt: date(r['updated_at']),
  };
}

export function receiptFromRow(r: Row): Receipt {
  return {
    receiptId: str(r['receipt_id']),
    kind: r['kind'] as ReceiptKind,
    contractId: str(r['contract_id']),
    holdId: str(r['hold_id']),
    payer: str(r['payer']),
    payee: str(r['payee']),
    amount: big(r['amount']),
    fee: big(r['fee']),
    refundedAmount: big(r['refunded_amount']),
    currency: str(r['currency']),
    journalEntryIds: (r['journal_entry_ids'] as string[] | null) ?? [],
    settledAt: date(r['settled_at']),
    signerPublicKey: str(r['signer_public_key']),
    signature: str(r['signature']),
    correctsReceiptId: strOrNull(r['corrects_receipt_id'] ?? null),
    reason: strOrNull(r['reason'] ?? null),
  };
}

/** Keyset page query: newest first by (created_at, id), LIMIT limit + 1 (toPage drops the extra). */
function pageClause(idColumn: string, cursor: string | undefined, firstParam: number): { sql: string; params: unknown[] } {
  if (!cursor) return { sql: '', params: [] };
  const key: CursorKey = decodeCursor(cursor);
  return { sql: ` AND (created_at, ${idColumn}) < ($${firstParam}, $${firstParam + 1})`, params: [key.createdAt, key.id] };
}

/** Every read of the wallet database; plain node-postgres queries. */
export class WalletReader {
  constructor(private readonly pool: pg.Pool) {}

  async balances(agentId: string): Promise<Balance[]> {
    const { rows } = await this.pool.query<{ currency: string; kind: string; balance: string }>({
      name: 'wallet_balances',
      text: `SELECT currency, kind, balance FROM accounts WHERE owner_id = $1 AND kind IN ('available', 'held')`,
      values: [agentId],
    });
    const byCurrency = new Map<string, Balance>();
    for (const row of rows) {
      const b = byCurrency.get(row.currency) ?? { currency: row.currency, available: 0n, held: 0n };
      if (row.kind === 'available') b.available = BigInt(row.balance);
      else b.held = BigInt(row.balance);
      byCurrency.set(row.currency, b);
    }
    return [...byCurrency.values()];
  }

  async hold(holdId: string): Promise<Hold | undefined> {
    const { rows } = await this.pool.query({ name: 'wallet_hold', text: 'SELECT * FROM holds WHERE hold_id = $1', values: [holdId] });
    return rows[0] ? holdFromRow(rows[0]) : undefined;
  }

  async deposit(depositId: string): Promise<Deposit | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM deposits WHERE deposit_id = $1', [depositId]);
    return rows[0] ? depositFromRow(rows[0]) : undefined;
  }

  async deposits(agentId: string, opts: { status?: DepositStatus; cursor?: string; limit: number }): Promise<Deposit[]> {
    const params: unknown[] = [agentId, opts.limit + 1];
    let where = 'agent_id = $1';
    if (opts.status) {
      params.push(opts.status);
      where += ` AND status = $${params.length}`;
    }
    const page = pageClause('deposit_id', opts.cursor, params.length + 1);
    const { rows } = await this.pool.query(
      `SELECT * FROM deposits WHERE ${where}${page.sql} ORDER BY created_at DESC, deposit_id DESC LIMIT $2`,
      [...params, ...page.params],
    );
    return rows.map(depositFromRow);
  }

  async payoutDestination(id: string): Promise<PayoutDestination | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM payout_destinations WHERE payout_destination_id = $1', [id]);
    return rows[0] ? payoutDestinationFromRow(rows[0]) : undefined;
  }

  async payoutDestinations(agentId: string, opts: { cursor?: string; limit: number }): Promise<PayoutDestination[]> {
    const page = pageClause('payout_destination_id', opts.cursor, 3);
    const { rows } = await this.pool.query(
      `SELECT * FROM payout_destinations WHERE agent_id = $1${page.sql}
        ORDER BY created_at DESC, payout_destination_id DESC LIMIT $2`,
      [agentId, opts.limit + 1, ...page.params],
    );
    return rows.map(payoutDestinationFromRow);
  }

  async withdrawal(id: string): Promise<Withdrawal | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM withdrawals WHERE withdrawal_id = $1', [id]);
    return rows[0] ? withdrawalFromRow(rows[0]) : undefined;
  }

  async receipt(receiptId: string): Promise<Receipt | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM receipts WHERE receipt_id = $1', [receiptId]);
    return rows[0] ? receiptFromRow(rows[0]) : undefined;
  }

  /** The correction receipt of a settlement receipt, if it was corrected (at most one). */
  async correctionOf(receiptId: string): Promise<Receipt | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM receipts WHERE corrects_receipt_id = $1', [receiptId]);
    return rows[0] ? receiptFromRow(rows[0]) : undefined;
  }

  /** A system account's balance (0 when it was never posted to). */
  async systemBalance(accountId: string): Promise<bigint> {
    const { rows } = await this.pool.query<{ balance: string }>('SELECT balance FROM accounts WHERE account_id = $1', [accountId]);
    return rows[0] ? BigInt(rows[0].balance) : 0n;
  }

  async latestReceiptOfContract(contractId: string): Promise<Receipt | undefined> {
    const { rows } = await this.pool.query(
      'SELECT * FROM receipts WHERE contract_id = $1 ORDER BY settled_at DESC, receipt_id DESC LIMIT 1',
      [contractId],
    );
    return rows[0] ? receiptFromRow(rows[0]) : undefined;
  }

  async controls(): Promise<Controls> {
    const { rows } = await this.pool.query<{ read_only: boolean; kill_switches: string[] }>(
      'SELECT read_only, kill_switches FROM controls WHERE id = 1',
    );
    return { readOnly: rows[0]?.read_only ?? false, killSwitches: (rows[0]?.kill_switches ?? []) as KillSwitch[] };
  }
}
