import { createServiceClient, errorInfoFromGrpc, parseAmount, type CallOptions } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import type { ServiceProcess } from '@exchange/testing';
import type pg from 'pg';
import { startMarketHarness, type MarketClient, type MarketHarness, type TestAgent, type WalletClient } from '../../market-harness';

// The fault and concurrency suites' view of helper A's market harness (fake identity, a real
// wallet-ledger process, the market): `process` mode stops the harness's in-process market and
// runs apps/market/src/main.ts as its own OS process instead — so the fault suite can watch it
// SIGKILL itself mid-saga and restart it on the same database and port; `in-process` mode keeps
// the harness's market (the concurrency suite). Reads go through gRPC; SQL only counts what the
// services stored (holds, receipts, saga steps).

export type { MarketClient, WalletClient };
export type RigAgent = TestAgent;

export const OPERATOR: CallOptions = { actor: 'operator:fault-suite' };
export const asAgent = (agentId: string): CallOptions => ({ actor: `agent:${agentId}`, agentId });

export interface MarketRig {
  harness: MarketHarness;
  market: MarketClient;
  wallet: WalletClient;
  marketSql: pg.Pool;
  walletSql: pg.Pool;
  /** (Re)starts the market process on the same port and database with `env` added (process mode). */
  startMarket(env?: Record<string, string>): Promise<ServiceProcess>;
  /** Stops the market process if one runs (process mode). */
  stopMarket(): Promise<void>;
  /** Resolves once the market process has exited on its own (no signal from the test); throws after `timeoutMs`. */
  marketDied(timeoutMs?: number): Promise<void>;
  agent(name: string): RigAgent;
  fund(agentId: string, amount: string): Promise<void>;
  /** CREDIT balance in micro-units. */
  balance(agentId: string): Promise<{ available: bigint; held: bigint }>;
  /** The fees account (CREDIT) in micro-units. */
  fees(): Promise<bigint>;
  close(): Promise<void>;
}

export async function startMarketRig(name: string, mode: 'process' | 'in-process' = 'process'): Promise<MarketRig> {
  const h = await startMarketHarness({ name });
  let proc: ServiceProcess | undefined;
  let processClient: MarketClient | undefined;
  if (mode === 'process') await h.stopMarket();

  const rig: MarketRig = {
    harness: h,
    get market(): MarketClient {
      if (mode === 'in-process') return h.client;
      if (!processClient) throw new Error('market process not started');
      return processClient;
    },
    wallet: h.wallet,
    marketSql: h.marketSql,
    walletSql: h.walletSql,
    async startMarket(env = {}) {
      if (mode !== 'process') throw new Error('startMarket is for process mode');
      await rig.stopMarket();
      const spawned = await h.spawnMarket(env);
      proc = spawned.process;
      // One client of our own for the fixed address (the harness closes its clients at close()).
      processClient ??= createServiceClient(marketV1.MarketServiceService, proc.address, { defaultDeadlineMs: 30_000 });
      return proc;
    },
    async stopMarket() {
      await proc?.stop();
    },
    async marketDied(timeoutMs = 20_000) {
      const pid = proc?.pid;
      if (!pid) throw new Error('market process not started');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          process.kill(pid, 0);
        } catch {
          return; // gone
        }
        if (Date.now() > deadline) throw new Error(`market process ${pid} still alive after ${timeoutMs} ms:\n${proc?.stderr()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    agent: (label) => h.newAgent(label),
    fund: (agentId, amount) => h.fund(agentId, amount),
    async balance(agentId) {
      const b = await h.balances(agentId);
      return { available: parseAmount(b.available), held: parseAmount(b.held) };
    },
    async fees() {
      return parseAmount(await h.feesBalance());
    },
    async close() {
      processClient?.close();
      await h.close();
    },
  };
  return rig;
}

/** The signature a verifier (or buyer) puts on a report (the harness's signer). */
export function signReport(rig: MarketRig, agent: RigAgent, r: { verifierId: string; resultId: string; verdict: 'pass' | 'fail'; score: number; checks: Array<{ name: string; ok: boolean; detail?: string }> }): string {
  return rig.harness.signReport(agent, r);
}

/** The gRPC error code (x-error-code, else the status name) of a rejected call, or the value. */
export async function outcomeOf<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; grpcCode: number }> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    const info = errorInfoFromGrpc(err);
    return { ok: false, code: info.code, grpcCode: info.grpcCode };
  }
}

/** A contract (budget 100 CREDIT, deadline in a day, mode buyer) created by `buyer`. */
export async function createContract(market: MarketClient, buyer: RigAgent, extra: Partial<marketV1.CreateContractRequest> = {}): Promise<marketV1.Contract> {
  const res = await market.createContract(
    marketV1.CreateContractRequest.fromPartial({
      buyerId: buyer.agentId,
      title: 'Fault suite work',
      budget: { amount: '100', currency: 'CREDIT' },
      deadline: new Date(Date.now() + 86_400_000),
      acceptanceCriteria: 'done',
      verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
      ...extra,
    }),
    asAgent(buyer.agentId),
  );
  return res.contract!;
}

/** eta defaults to an hour from now; a contract with a nearer deadline needs an eta by then (else invalid_eta). */
export async function submitOffer(market: MarketClient, contractId: string, seller: RigAgent, price: string, eta = new Date(Date.now() + 3_600_000)): Promise<marketV1.Offer> {
  const res = await market.submitOffer(
    marketV1.SubmitOfferRequest.fromPartial({ contractId, sellerId: seller.agentId, price: { amount: price, currency: 'CREDIT' }, eta }),
    asAgent(seller.agentId),
  );
  return res.offer!;
}

/** CheckLedger of wallet-ledger: ok and no discrepancy. */
export async function expectLedgerOk(wallet: WalletClient): Promise<void> {
  const report = await wallet.checkLedger({});
  expect({ ok: report.ok, discrepancies: report.discrepancies }).toEqual({ ok: true, discrepancies: [] });
}

export async function countRows(sql: pg.Pool, query: string, params: unknown[]): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(query, params);
  return rows[0].n;
}
