import type fc from 'fast-check';
import { errorInfoFromGrpc } from '@exchange/platform';
import type { TestWallet } from '../wallet-harness';

// The model of test/lifecycle.model.spec.ts: its state, the comparison with the real service
// after every step, and the base class of the steps (hold-steps.ts, money-steps.ts).

export type HoldState = 'active' | 'released' | 'consumed' | 'expired';
export type DepositState = 'pending' | 'confirmed' | 'expired';
export type WithdrawalState = 'requested' | 'processing' | 'completed' | 'failed' | 'cancelled';

export interface Model {
  agents: string[];
  balances: Map<string, { available: bigint; held: bigint }>;
  holds: Array<{ id: string; agent: string; amount: bigint; status: HoldState; expiresAt: number | null }>;
  deposits: Array<{ id: string; agent: string; amount: bigint; status: DepositState }>;
  withdrawals: Array<{ id: string; agent: string; amount: bigint; status: WithdrawalState; fails: boolean }>;
  /** Withdrawal limit usage today per agent (USD). */
  usedToday: Map<string, bigint>;
  destinations: Map<string, { ok: string; fail: string }>;
}

export interface Real {
  t: TestWallet;
}

export const CURRENCY = 'USD';
export const ATTESTED_LIMIT = 1000_000_000n;
export const FUNDING = 100_000_000n;

// The service's clock: fake and moved forward one second before every command, so worker rounds
// see every earlier change and hold expiries are decided by the test, not by wall time.
// (An object, not a `let`, so the step modules and the spec share one value.)
export const fake = { now: Date.parse('2030-06-01T00:00:00.000Z') };
export const tick = (ms = 1000) => (fake.now += ms);

export async function refusedWith(call: Promise<unknown>, code: string): Promise<void> {
  try {
    await call;
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    if (info.code !== code) throw new Error(`expected ${code}, got ${info.code}: ${info.message}`);
    return;
  }
  throw new Error(`expected ${code}, the call succeeded`);
}

export const bal = (m: Model, agent: string) => m.balances.get(agent)!;

export async function assertMatchesModel(m: Model, r: Real): Promise<void> {
  const { rows: accounts } = await r.t.sql.query<{ owner_id: string; kind: string; balance: string }>(
    `SELECT owner_id, kind, balance::text FROM accounts WHERE owner_id = ANY($1) AND currency = $2`,
    [m.agents, CURRENCY],
  );
  for (const agent of m.agents) {
    const row = (kind: string) => BigInt(accounts.find((a) => a.owner_id === agent && a.kind === kind)?.balance ?? '0');
    const expected = bal(m, agent);
    const actual = { available: row('available'), held: row('held') };
    if (actual.available < 0n || actual.held < 0n) throw new Error(`negative balance for ${agent}`);
    expect({ agent, ...actual }).toEqual({ agent, ...expected });
  }
  const statuses = async (table: string, id: string) =>
    new Map(
      (await r.t.sql.query<{ id: string; status: string }>(`SELECT ${id} AS id, status::text FROM ${table} WHERE agent_id = ANY($1)`, [m.agents])).rows.map(
        (x) => [x.id, x.status],
      ),
    );
  const holds = await statuses('holds', 'hold_id');
  const deposits = await statuses('deposits', 'deposit_id');
  const withdrawals = await statuses('withdrawals', 'withdrawal_id');
  expect(m.holds.map((h) => holds.get(h.id))).toEqual(m.holds.map((h) => h.status));
  expect(m.deposits.map((d) => deposits.get(d.id))).toEqual(m.deposits.map((d) => d.status));
  expect(m.withdrawals.map((w) => withdrawals.get(w.id))).toEqual(m.withdrawals.map((w) => w.status));
}

export abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(_m: Readonly<Model>): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    tick();
    await this.apply(m, r);
    await assertMatchesModel(m, r);
  }
  abstract apply(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
}
