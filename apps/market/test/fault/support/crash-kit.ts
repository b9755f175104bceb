import { parseAmount } from '@exchange/platform';
import { status } from '@grpc/grpc-js';
import { OPERATOR, asAgent, countRows, createContract, outcomeOf, startMarketRig, submitOffer, type MarketRig, type RigAgent } from './market-rig';

// What the saga-crash specs share: one rig per spec file (its own databases) and the helpers of
// their tests. `rig` is a live binding, set by useCrashRig's beforeAll and read by the tests.

export let rig: MarketRig;

export function useCrashRig(name: string): void {
  beforeAll(async () => {
    rig = await startMarketRig(name);
  });

  afterAll(async () => {
    await rig?.close();
  });
}

export const C = (amount: string) => parseAmount(amount);

/** Starts the market with `fault` armed (stopping a running one first). */
export async function armed(fault: string) {
  await rig.startMarket({ MARKET_FAULT_INJECTION: fault });
}

/** The call the fault cut: it fails as UNAVAILABLE and the process is gone on its own. */
export async function expectCrash(call: Promise<unknown>) {
  const res = await outcomeOf(call);
  expect(res.ok).toBe(false);
  if (!res.ok) expect(res.grpcCode).toBe(status.UNAVAILABLE);
  await rig.marketDied();
}

export async function steps(contractId: string): Promise<Array<{ kind: string; status: string }>> {
  const { rows } = await rig.marketSql.query<{ kind: string; status: string }>('SELECT kind, status FROM saga_steps WHERE contract_id = $1 ORDER BY created_at', [contractId]);
  return rows;
}

/** The contract row as stored (read while the market is down). */
export async function storedContract(contractId: string): Promise<{ status: string; escrow_status: string }> {
  const { rows } = await rig.marketSql.query(`SELECT status, escrow_status FROM contracts WHERE to_jsonb(contracts)->>'id' = $1 OR to_jsonb(contracts)->>'contract_id' = $1`, [contractId]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

export const holdsOf = (agentId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM holds WHERE agent_id = $1', [agentId]);
export const receiptsOf = (contractId: string) => countRows(rig.walletSql, 'SELECT count(*)::int AS n FROM receipts WHERE contract_id = $1', [contractId]);

export async function contract(contractId: string) {
  return (await rig.market.getContract({ contractId }, OPERATOR)).contract!;
}

export async function awardedContract(buyer: RigAgent, seller: RigAgent, price: string) {
  const c = await createContract(rig.market, buyer);
  const offer = await submitOffer(rig.market, c.contractId, seller, price);
  await rig.market.awardOffer({ contractId: c.contractId, offerId: offer.offerId, idempotencyKey: '' }, OPERATOR);
  return { contractId: c.contractId, offer };
}

export async function deliver(contractId: string, seller: RigAgent) {
  const res = await rig.market.submitResult({ contractId, sellerId: seller.agentId, summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' }, asAgent(seller.agentId));
  return res.result!;
}
