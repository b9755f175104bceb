// Delegated checkout with the SDK: a principal agent signs a spending mandate for a shopping agent,
// which buys flowers at the built-in sandbox merchant (sandbox-merchant.local, a UCP business)
// and needs the principal's step-up approval above 50 USD; the purchase is paid from the shopping
// agent's wallet and leaves an exchange-signed receipt and a casefile of every message exchanged.
//
//   npm start                                      # in another terminal; prints the operator token
//   EXCHANGE_URL=http://127.0.0.1:8080 OPERATOR_TOKEN=<token> npx tsx libs/sdk/examples/delegated-checkout.ts
//
// The flow: operator registers both agents → shopper deposits 200 USD (sandbox deposit, confirmed
// by the operator) → principal signs a mandate (100 USD per purchase, 300 in total, step-up above
// 50) → shopper negotiates with the merchant → creates a checkout (2 roses, 70 USD: approval
// pending) → applies code 10OFF (63 USD) → principal signs its approval → shopper completes →
// receipt verified offline, casefile verified by the exchange. Then after the purchase: the
// shopper rates it, opens a refund case for one rose (13 USD), the operator reviews and approves
// it (the buyer is credited through the ledger with a signed refund receipt), and the deal's
// timeline shows it all in order.
import { randomBytes } from 'node:crypto';
import { ExchangeClient, generateAgentKeys, signApproval, signMandate, verifyReceipt, type Purchase } from '../src/index';

export const MERCHANT = 'sandbox-merchant.local';

export interface DelegatedCheckoutOptions {
  baseUrl: string;
  operatorToken: string;
  /** Agent namespace; a fresh one by default so the example can run again on the same exchange. */
  namespace?: string;
  log?: (line: string) => void;
}

export interface DelegatedCheckoutOutcome {
  shopperId: string;
  principalId: string;
  purchase: Purchase;
  receiptVerified: boolean;
  casefileValid: boolean;
  usdAvailable: string;
  refundReceiptVerified: boolean;
  timelineTypes: string[];
}

export async function delegatedCheckout(opts: DelegatedCheckoutOptions): Promise<DelegatedCheckoutOutcome> {
  const log = opts.log ?? (() => undefined);
  const ns = opts.namespace ?? `shop-${randomBytes(3).toString('hex')}`;
  const operator = new ExchangeClient({ baseUrl: opts.baseUrl, operatorToken: opts.operatorToken });
  const exchangeKey = (await operator.health()).exchange_public_key;
  if (!exchangeKey) throw new Error('the exchange publishes no public key on /health');

  // 1. Two agents: the principal who signs mandates and approvals, and the shopping agent.
  const agent = async (name: string) => {
    const keys = generateAgentKeys();
    const agentId = `${ns}:agent:${name}`;
    await operator.agents.registerAgent({ agentId, keys });
    return { agentId, keys, client: new ExchangeClient({ baseUrl: opts.baseUrl, agent: { agentId, privateKey: keys.privateKey } }) };
  };
  const principal = await agent('principal');
  const shopper = await agent('shopper');

  // 2. 200 USD on the shopper's wallet: a sandbox deposit the operator confirms.
  const deposit = await shopper.client.wallets.createDeposit(shopper.agentId, { amount: '200', currency: 'USD', method: 'sandbox', idempotencyKey: `${ns}-deposit` });
  await operator.wallets.confirmDeposit(shopper.agentId, deposit.deposit_id, { idempotencyKey: `${ns}-confirm` });

  // 3. The principal signs a mandate: this merchant only, 100 USD per purchase, 300 in total.
  const terms = {
    signerAgentId: principal.agentId,
    agentId: shopper.agentId,
    scope: { merchants: [MERCHANT], categories: [], skus: [] },
    limits: { perTransaction: '100', total: '300', currency: 'USD' },
    expiresAt: new Date(Date.now() + 7 * 86_400_000),
  };
  const mandate = await principal.client.mandates.create({
    ...terms,
    signature: signMandate(terms, principal.keys.privateKey),
    autonomy: { mode: 'step_up', stepUpThreshold: { amount: '50', currency: 'USD' }, approvalForNewMerchants: false },
    idempotencyKey: `${ns}-mandate`,
  });
  log(`mandate ${mandate.mandate_id} ${mandate.status}: ${mandate.limits.total} ${mandate.limits.currency}, step-up above 50`);

  // 4. What the merchant and the exchange can do together (UCP negotiation).
  const negotiation = await shopper.client.commerce.negotiate(MERCHANT);
  log(`negotiated ${negotiation.status}: ${negotiation.capabilities.map((c) => `${c.name}@${c.version}`).join(', ')}`);

  // 5. The shopper's intent (AP2 IntentMandate): roses at this merchant, at most 80 USD.
  const intent = await shopper.client.purchases.createIntent({
    description: 'two bouquets of roses for the front desk',
    merchants: [MERCHANT],
    skus: ['bouquet_roses'],
    budget: { amount: '80', currency: 'USD' },
    expiresAt: new Date(Date.now() + 86_400_000),
    idempotencyKey: `${ns}-intent`,
  });
  log(`intent ${intent.intent_id}: budget ${intent.budget.amount} ${intent.budget.currency}`);

  // 6. A checkout of 2 × roses (35 USD each) under the intent: above the threshold, so approval is pending.
  const session = await shopper.client.checkout.create({
    intentId: intent.intent_id,
    mandateId: mandate.mandate_id,
    merchantDomain: MERCHANT,
    lineItems: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
    buyer: { email: 'shopper@example.com' },
    idempotencyKey: `${ns}-checkout`,
  });
  log(`checkout ${session.commerce_session_id}: ${session.status}, ${session.total} ${session.currency}, approval ${session.approval}`);

  // 7. A discount code, applied by the merchant through a UCP update.
  const discounted = await shopper.client.checkout.applyDiscount(session.commerce_session_id, ['10OFF'], { idempotencyKey: `${ns}-discount` });
  log(`discount ${discounted.applied.join(', ')}: ${discounted.session.total} (saved ${discounted.session.savings})`);

  // 8. The principal approves the session's current total.
  const s = discounted.session;
  const signature = signApproval(
    { commerceSessionId: s.commerce_session_id, decision: 'approve', approverId: principal.agentId, total: s.total, currency: s.currency },
    principal.keys.privateKey,
  );
  await principal.client.checkout.submitApproval(s.commerce_session_id, { decision: 'approve', approverId: principal.agentId, signature });

  // 9. Complete: hold on the wallet → the merchant completes → paid to the merchant, receipt signed.
  const done = await shopper.client.checkout.complete(s.commerce_session_id, { idempotencyKey: `${ns}-complete` });
  if (!done.purchase) throw new Error(`no purchase: session ${done.session.status}`);
  const purchase = done.purchase;
  const receiptVerified = verifyReceipt(purchase.receipt as Parameters<typeof verifyReceipt>[0], exchangeKey);
  log(`purchase ${purchase.deal_id}: ${purchase.amount} ${purchase.currency} to ${purchase.merchant_domain}, receipt signature ${receiptVerified ? 'valid' : 'INVALID'}`);

  // 10. The casefile of every message exchanged with the merchant, verified by the exchange.
  const verdict = await shopper.client.checkout.verifyCasefile(s.commerce_session_id);
  log(`casefile ${verdict.valid ? 'VALID' : 'INVALID'} (${verdict.checks.length} checks)`);

  // 11. Feedback, then a refund case for one rose that the operator reviews and approves.
  await shopper.client.purchases.recordFeedback(purchase.deal_id, 4, 'one rose arrived wilted');
  const opened = await shopper.client.purchases.openCase({ dealId: purchase.deal_id, type: 'refund', reason: 'one rose arrived wilted', amount: '13', idempotencyKey: `${ns}-case` });
  await operator.purchases.updateCase(opened.case_id, { status: 'under_review' });
  const approved = await operator.purchases.updateCase(opened.case_id, { status: 'approved', note: 'photo checked' });
  const refundReceipt = approved.refund_receipt;
  const refundReceiptVerified = refundReceipt != null && verifyReceipt(refundReceipt as Parameters<typeof verifyReceipt>[0], exchangeKey);
  log(`case ${opened.case_id} ${approved.case.status}: ${approved.case.amount} ${approved.case.currency} credited, refund receipt signature ${refundReceiptVerified ? 'valid' : 'INVALID'}`);

  // 12. The deal's timeline: session changes, receipt, webhooks, feedback and case events in order.
  const timeline = await shopper.client.purchases.timeline(purchase.deal_id);
  const timelineTypes = timeline.entries.map((e) => e.type);
  log(`timeline: ${timelineTypes.join(' → ')}`);

  const balance = await shopper.client.wallets.getBalance(shopper.agentId);
  const usdAvailable = balance.balances.find((b) => b.currency === 'USD')?.available ?? '0';
  log(`shopper USD available: ${usdAvailable}`);
  return {
    shopperId: shopper.agentId,
    principalId: principal.agentId,
    purchase,
    receiptVerified,
    casefileValid: verdict.valid,
    usdAvailable,
    refundReceiptVerified,
    timelineTypes,
  };
}

if (require.main === module) {
  const baseUrl = process.env['EXCHANGE_URL'] ?? 'http://127.0.0.1:8080';
  const operatorToken = process.env['OPERATOR_TOKEN'];
  if (!operatorToken) {
    process.stderr.write('set OPERATOR_TOKEN (printed by `npm start`)\n');
    process.exit(2);
  }
  delegatedCheckout({ baseUrl, operatorToken, log: (line) => process.stdout.write(`${line}\n`) }).then(
    (outcome) => process.exit(outcome.receiptVerified && outcome.casefileValid && outcome.refundReceiptVerified ? 0 : 1),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
