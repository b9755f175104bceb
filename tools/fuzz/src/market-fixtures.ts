// Contracts in the states the contract flow's operations act on, set aside as targets
// (op-targets.ts) for the agent that may act: open contracts another agent posted (offers), open
// contracts with a submitted offer (award), contracts awarded to a signer (results), delivered
// ones awaiting their verifier or their buyer (verify), awarded and settled ones (disputes), a
// resale of an awarded one awaiting the operator's review (its decision_ref). Each
// of these succeeds once per contract, so every operation gets its own contracts. Prices are
// 1 CREDIT: an award holds that much of the buyer's wallet as escrow.
import type { ExchangeClient } from '@exchange/sdk';
import type { TargetSet } from './op-targets';
import type { Party, Step } from './fixture-kit';

export interface MarketFixtureOptions {
  operator: ExchangeClient;
  /** Buyer, seller and verifier first, then the other signing agents. */
  parties: Party[];
  /** A settled contract of the buyer and the seller (disputable within the window), if setup made one. */
  settledContractId: string | null;
  targets: TargetSet;
  step: Step;
}

export const MARKET_OPS = {
  offer: 'POST /v1/contracts/{contract_id}/offers',
  award: 'POST /v1/contracts/{contract_id}/award/{offer_id}',
  result: 'POST /v1/contracts/{contract_id}/results',
  verify: 'POST /v1/contracts/{contract_id}/verify',
  dispute: 'POST /v1/contracts/{contract_id}/disputes',
  readReview: 'GET /v1/contracts/resale-lineage/review-decisions/{decision_ref}',
  decideReview: 'POST /v1/contracts/resale-lineage/review-decisions/{decision_ref}',
} as const;

const DAY = 86_400_000;

/** Makes the contracts and records their targets; returns the escrow holds the awards made. */
export async function createMarketFixtures(o: MarketFixtureOptions): Promise<string[]> {
  const { operator, targets, step } = o;
  const [buyer, seller, verifier, ...others] = o.parties;
  const escrow: string[] = [];
  // Far enough that any generated eta (up to a month ahead) is before it.
  const deadline = () => new Date(Date.now() + 40 * DAY);
  const post = (by: Party, mode: 'auto' | 'buyer' | 'verifier') =>
    by.client.contracts.create({
      title: `Fuzz ${mode} contract`,
      tags: ['fuzz'],
      budget: { amount: '30', currency: 'CREDIT' },
      deadline: deadline(),
      acceptanceCriteria: 'anything',
      verificationMode: mode,
      ...(mode === 'verifier' ? { verifierId: verifier.agentId } : {}),
    });
  const offer = (by: Party, contractId: string) =>
    by.client.contracts.offers.submit(contractId, { price: { amount: '1', currency: 'CREDIT' }, eta: new Date(Date.now() + DAY), terms: 'fuzz' });
  /** A contract of the buyer awarded to `to`. */
  const awarded = async (to: Party, mode: 'buyer' | 'verifier') => {
    const c = await post(buyer, mode);
    const o = await offer(to, c.contract_id);
    const a = await operator.contracts.award(c.contract_id, o.offer_id);
    if (a.hold_id) escrow.push(a.hold_id);
    return c.contract_id;
  };

  // Offers: one open contract of the buyer and one of the seller; nobody offers on its own.
  for (const poster of [buyer, seller]) {
    const c = await step(`open contract of ${poster.agentId}`, () => post(poster, 'auto'));
    if (!c) continue;
    for (const p of o.parties) if (p !== poster) targets.add(MARKET_OPS.offer, p.agentId, { contract_id: c.contract_id });
  }
  // Award (operator): two open contracts, each with a submitted offer.
  for (const n of [1, 2]) {
    const pair = await step(`contract to award ${n}`, async () => {
      const c = await post(buyer, 'auto');
      return { contract_id: c.contract_id, offer_id: (await offer(seller, c.contract_id)).offer_id };
    });
    if (pair) targets.add(MARKET_OPS.award, null, pair);
  }
  // Results: contracts awarded to the seller and to another signer, nothing delivered yet.
  for (const to of [seller, ...others.slice(0, 1)]) {
    const id = await step(`contract awarded to ${to.agentId}`, () => awarded(to, 'buyer'));
    if (id) targets.add(MARKET_OPS.result, to.agentId, { contract_id: id });
  }
  // Verify: delivered contracts awaiting their verifier, and their buyer (mode buyer).
  for (const [mode, by] of [['verifier', verifier], ['buyer', buyer]] as const) {
    await step(`delivered contract (${mode})`, async () => {
      const id = await awarded(seller, mode);
      const r = await seller.client.contracts.results.submit(id, { summary: 'to verify', payload: { ok: true } });
      targets.add(MARKET_OPS.verify, by.agentId, { contract_id: id, result_id: r.result_id });
    });
  }
  // Disputes: an awarded contract (either party) and the settled one (its buyer).
  const disputable = await step('contract to dispute', () => awarded(seller, 'buyer'));
  if (disputable) for (const p of [buyer, seller]) targets.add(MARKET_OPS.dispute, p.agentId, { contract_id: disputable });
  // Resale review (operator): the seller subcontracts that awarded contract; its review waits for a decision.
  if (disputable) {
    await step('resale contract', async () => {
      const c = await seller.client.contracts.create({ title: 'Fuzz resale', tags: ['fuzz'], budget: { amount: '1', currency: 'CREDIT' }, deadline: deadline(), acceptanceCriteria: 'anything', resaleOf: disputable });
      const ref = c.resale_review?.decision_ref;
      if (!ref) throw new Error('the resale contract has no resale_review');
      for (const op of [MARKET_OPS.readReview, MARKET_OPS.decideReview]) targets.add(op, null, { decision_ref: ref });
    });
  }
  if (o.settledContractId) targets.add(MARKET_OPS.dispute, buyer.agentId, { contract_id: o.settledContractId });
  return escrow;
}
