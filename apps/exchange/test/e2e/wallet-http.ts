import { randomBytes } from 'node:crypto';
import { http, type HttpResult } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';

// Raw-HTTP helpers for the wallet e2e suites: the operator, agent-signed requests (the exact
// bytes signed are the bytes sent) and balance reads.

export interface CreditBalance {
  available: string;
  held: string;
}

export class WalletHttp {
  constructor(
    readonly baseUrl: string,
    readonly operatorToken: string,
  ) {}

  /** With the operator token (and, when given, more headers such as X-Agent-Id or Idempotency-Key). */
  op<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    return http<T>(this.baseUrl, method, path, { token: this.operatorToken, body, headers });
  }

  /** Signed by the agent itself (X-Agent-Id, X-Agent-Timestamp, X-Agent-Signature), no token. */
  as<T = any>(agent: RawAgent, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const rawBody = body === undefined ? undefined : JSON.stringify(body);
    return http<T>(this.baseUrl, method, path, { headers: { ...agent.signedHeaders(method, path, rawBody ?? ''), ...headers }, rawBody });
  }

  async register(agent: RawAgent): Promise<void> {
    const res = await this.op('POST', '/v1/agents', agent.registrationBody());
    if (res.status !== 201) throw new Error(`registration of ${agent.agentId} failed: ${res.status} ${res.text}`);
  }

  /** The CREDIT row of the wallet (zeros when the wallet has none yet). */
  async balance(agent: RawAgent, currency = 'CREDIT'): Promise<CreditBalance> {
    const res = await this.op('GET', walletPath(agent));
    if (res.status !== 200) throw new Error(`balance of ${agent.agentId}: ${res.status} ${res.text}`);
    const row = (res.body.balances as Array<{ currency: string; available: string; held: string }>).find((b) => b.currency === currency);
    return row ? { available: row.available, held: row.held } : { available: '0', held: '0' };
  }

  /** A registered agent named after `name`. */
  async newAgent(name: string): Promise<RawAgent> {
    const agent = new RawAgent(uniqueAgentId(name));
    await this.register(agent);
    return agent;
  }

  /** Funds a wallet through a sandbox deposit the operator confirms (no faucet cap involved). */
  async fund(agent: RawAgent, amount: string, currency = 'CREDIT'): Promise<void> {
    const deposit = await this.expectStatus(this.as(agent, 'POST', walletPath(agent, '/deposits'), { amount, currency, method: 'sandbox', idempotency_key: newKey('fund') }), 201);
    await this.expectStatus(this.op('POST', walletPath(agent, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey('fund-confirm') }), 200);
  }

  faucet(agent: RawAgent, amount: string, category = 'e2e') {
    return this.expectStatus(this.as(agent, 'POST', walletPath(agent, '/faucet'), { amount, category, idempotency_key: newKey('faucet') }), 201);
  }

  /** An agent with `amount` CREDIT, raised to MAINNET_ATTESTED by the operator through the identity API. */
  async attestedAgent(name: string, amount: string): Promise<RawAgent> {
    const agent = await this.newAgent(name);
    await this.fund(agent, amount);
    for (const level of ['MAINNET_BASIC', 'MAINNET_ATTESTED']) {
      await this.expectStatus(this.op('POST', `/v1/agents/${agent.agentId}/identity_level`, { identity_level: level, reason: 'e2e KYC' }), 200);
    }
    return agent;
  }

  /**
   * Creates a withdrawal, retrying (with a fresh key each time) while wallet-ledger still has the
   * agent's previous level cached (AGENT_CACHE_TTL_MS): a refusal is stored with its key.
   */
  async createWithdrawal(agent: RawAgent, body: Record<string, unknown>) {
    const res = await eventually(
      () => this.as(agent, 'POST', walletPath(agent, '/withdrawals'), { ...body, idempotency_key: newKey('wdr') }),
      (r) => !(r.status === 403 && r.body?.code === 'identity_level_insufficient'),
      40,
    );
    return this.expectStatus(res, 201);
  }

  /** GET /v1/ledger/check: every balance matches the journal, each currency sums to 0. */
  async expectLedgerOk(): Promise<void> {
    const report = await this.expectStatus(this.op('GET', '/v1/ledger/check'), 200);
    expect({ ok: report.ok, discrepancies: report.discrepancies }).toEqual({ ok: true, discrepancies: [] });
    for (const sum of Object.values(report.global_sums as Record<string, string>)) expect(sum).toBe('0');
  }

  /** Asserts a success status, returning the body (the error text otherwise, for a readable failure). */
  async expectStatus<T = any>(res: Promise<HttpResult<T>> | HttpResult<T>, status: number): Promise<T> {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
    return r.body;
  }
}

export const walletPath = (agent: RawAgent | string, rest = ''): string =>
  `/v1/wallets/${typeof agent === 'string' ? agent : agent.agentId}${rest}`;

let seq = 0;
/** A fresh idempotency key (one intent). */
export function newKey(label = 'e2e'): string {
  return `${label}-${randomBytes(6).toString('hex')}-${seq++}`;
}

/** Next UTC midnight after `now`, as the faucet and withdrawal caps report `resets_at`. */
export function nextUtcMidnight(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
}

/**
 * Re-reads until `done` holds (state moved by a background worker, e.g. the payout processor);
 * fails with the last value after `attempts` reads. No timing is asserted, only the end state.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, attempts = 120, pauseMs = 250): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < attempts; i++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  throw new Error(`state not reached after ${attempts} reads; last: ${JSON.stringify(last)}`);
}
