// Real mandates and checkout sessions at the sandbox merchant the sandbox exchange runs, so that
// fuzzed commerce requests name sessions and mandates that exist (2xx, spend rules, the merchant
// behind them) and not only 404s. Every signing agent gets a mandate of its own, granted by
// another agent, so a generated checkout can run under the acting agent's mandate. The completed
// checkout's purchase has a post-purchase case; its buyer is the target (op-targets.ts) of the
// routes only the buyer may call (feedback, a new case), the case that of its update; each open
// session is its buyer's target to complete, each mandate its granting agent's to change.
import { ExchangeClient, signMandate, type AutonomyInput } from '@exchange/sdk';
import type { Pools } from './id-pools';
import type { TargetSet } from './op-targets';
import type { SigningParty, Step } from './fixture-kit';

export const SANDBOX_MERCHANT = 'sandbox-merchant.local';
/** Item ids of the sandbox merchant's catalog (apps/sandbox-merchant/src/catalog/products.csv). */
export const SANDBOX_SKUS = ['bouquet_roses', 'pot_ceramic', 'bouquet_sunflowers', 'bouquet_tulips', 'orchid_white', 'gardenias'];

export interface CommerceContext {
  /** The mandate granted to each signing agent (agent id → mandate id). */
  mandateFor: ReadonlyMap<string, string>;
  /** Per signing agent, the sessions it bought in and the mandates it signed or holds. */
  actorPools: ReadonlyMap<string, Pools>;
  merchants: string[];
  skus: string[];
}

export interface CommerceFixtureOptions {
  operator: ExchangeClient;
  /** The signing agents; the first grants mandates, the second shops and pays. */
  parties: SigningParty[];
  pools: Required<Pick<Pools, 'mandate' | 'commerceSession' | 'merchantDomain' | 'deal' | 'case'>>;
  namespace: string;
  targets: TargetSet;
  step: Step;
}

const DAY = 86_400_000;

/** The operations with commerce targets (op-targets.ts). */
export const COMMERCE_OPS = {
  autonomy: 'PUT /v1/mandates/{mandate_id}/autonomy',
  complete: 'POST /v1/commerce/ucp/checkout/{commerce_session_id}/complete',
  feedback: 'POST /v1/commerce/feedback/record',
  newCase: 'POST /v1/post-purchase/cases',
  updateCase: 'POST /v1/post-purchase/cases/{case_id}',
} as const;

async function grant(principal: SigningParty, agentId: string, autonomy: AutonomyInput, key: string): Promise<string> {
  const terms = {
    signerAgentId: principal.agentId,
    agentId,
    scope: { merchants: [SANDBOX_MERCHANT], categories: [], skus: [] },
    limits: { perTransaction: '500', total: '5000', currency: 'USD' },
    expiresAt: new Date(Date.now() + 30 * DAY),
  };
  const mandate = await principal.client.mandates.create({ ...terms, signature: signMandate(terms, principal.keys.privateKey), autonomy, idempotencyKey: key });
  return mandate.mandate_id;
}

export async function createCommerceFixtures(o: CommerceFixtureOptions): Promise<CommerceContext> {
  const { operator, parties, pools, namespace: ns, step } = o;
  const mandateFor = new Map<string, string>();
  const actorPools = new Map<string, { mandate: string[]; commerceSession: string[] }>(parties.map((p) => [p.agentId, { mandate: [], commerceSession: [] }]));
  const mine = (agentId: string) => actorPools.get(agentId) as { mandate: string[]; commerceSession: string[] };
  pools.merchantDomain.push(SANDBOX_MERCHANT);
  const [principal, shopper] = parties;
  const autonomous: AutonomyInput = { mode: 'autonomous', approvalForNewMerchants: false };
  const checkout = (buyer: SigningParty, mandateId: string, sku: string, key: string) =>
    buyer.client.checkout.create({
      mandateId,
      merchantDomain: SANDBOX_MERCHANT,
      lineItems: [{ item: { id: sku }, quantity: 1 }],
      buyer: { email: 'fuzz@example.com' },
      idempotencyKey: `${ns}-${key}`,
    });
  for (const [i, p] of parties.entries()) {
    // Granted by another agent (the principal's own by the shopper); both may read it.
    const from = p === principal ? shopper : principal;
    const id = await step(`mandate for ${p.agentId}`, () => grant(from, p.agentId, autonomous, `${ns}-mandate-${p.agentId}`));
    if (!id) continue;
    mandateFor.set(p.agentId, id);
    pools.mandate.push(id);
    mine(p.agentId).mandate.push(id);
    mine(from.agentId).mandate.push(id);
    // Only the granting agent may change its autonomy.
    o.targets.add(COMMERCE_OPS.autonomy, from.agentId, { mandate_id: id });
    // USD on its wallet, so a complete (the fixture's or a fuzzed one) can pay; and an open session.
    await step(`USD deposit for ${p.agentId}`, async () => {
      const d = await p.client.wallets.createDeposit(p.agentId, { amount: '1000', currency: 'USD', method: 'sandbox', idempotencyKey: `${ns}-usd-${p.agentId}` });
      await operator.wallets.confirmDeposit(p.agentId, d.deposit_id, { idempotencyKey: `${ns}-usd-confirm-${p.agentId}` });
    });
    const open = await step(`open checkout of ${p.agentId}`, () => checkout(p, id, SANDBOX_SKUS[i % SANDBOX_SKUS.length], `checkout-open-${p.agentId}`));
    if (open) {
      pools.commerceSession.push(open.commerce_session_id);
      mine(p.agentId).commerceSession.push(open.commerce_session_id);
      // Only its buyer may complete it.
      o.targets.add(COMMERCE_OPS.complete, p.agentId, { commerce_session_id: open.commerce_session_id });
    }
  }
  // A completed session (a purchase, its evidence and casefile).
  const shopperMandate = mandateFor.get(shopper.agentId);
  if (shopperMandate) {
    await step('completed checkout', async () => {
      const s = await checkout(shopper, shopperMandate, 'pot_ceramic', 'checkout-done');
      pools.commerceSession.push(s.commerce_session_id);
      mine(shopper.agentId).commerceSession.push(s.commerce_session_id);
      const done = await shopper.client.checkout.complete(s.commerce_session_id, { idempotencyKey: `${ns}-complete` });
      const dealId = done.session.deal_id ?? done.purchase?.deal_id;
      if (!dealId) throw new Error('the completed checkout has no deal_id');
      pools.deal.push(dealId);
      for (const op of [COMMERCE_OPS.feedback, COMMERCE_OPS.newCase]) o.targets.add(op, shopper.agentId, { deal_id: dealId });
      // 1 of its 15 USD: what remains is refundable for the fuzzed cases.
      const c = await shopper.client.purchases.openCase({ dealId, type: 'refund', reason: 'fuzz setup', amount: '1', idempotencyKey: `${ns}-case` });
      pools.case.push(c.case_id);
      // Moved or given evidence by the operator or its buyer (the operator mostly).
      o.targets.add(COMMERCE_OPS.updateCase, null, { case_id: c.case_id });
    });
  }
  // A session waiting for the principal's approval (step-up above 10 USD).
  await step('checkout awaiting approval', async () => {
    const stepUp = await grant(principal, shopper.agentId, { mode: 'step_up', stepUpThreshold: { amount: '10', currency: 'USD' }, approvalForNewMerchants: false }, `${ns}-mandate-step-up`);
    pools.mandate.push(stepUp);
    mine(principal.agentId).mandate.push(stepUp);
    const s = await checkout(shopper, stepUp, 'orchid_white', 'checkout-pending');
    pools.commerceSession.push(s.commerce_session_id);
    mine(principal.agentId).commerceSession.push(s.commerce_session_id);
  });
  return { mandateFor, actorPools, merchants: [SANDBOX_MERCHANT], skus: SANDBOX_SKUS };
}
