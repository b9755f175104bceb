import type pg from 'pg';
import type { Balance } from '../domain/wallet.model';

/** Reads of the accounts table: an agent's balances, a system account's balance. */
export class BalancesRepo {
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

  /** A system or merchant settlement account's balance (0 when it was never posted to). */
  async systemBalance(accountId: string): Promise<bigint> {
    const { rows } = await this.pool.query<{ balance: string }>('SELECT balance FROM accounts WHERE account_id = $1', [accountId]);
    return rows[0] ? BigInt(rows[0].balance) : 0n;
  }
}
