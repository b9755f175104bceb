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
// receipt verified offline, casefile verified by the exchange.
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

  // 5. A checkout of 2 × roses (35 USD each): above the threshold, so approval is pending.
  const session = await shopper.client.checkout.create({
    mandateId: mandate.mandate_id,
    merchantDomain: MERCHANT,
    lineItems: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
    buyer: { email: 'shopper@example.com' },
    idempotencyKey: `${ns}-checkout`,
  });
  log(`checkout ${session.commerce_session_id}: ${session.status}, ${session.total} ${session.currency}, approval ${session.approval}`);

  // 6. A discount code, applied by the merchant through a UCP update.
  const discounted = await shopper.client.checkout.applyDiscount(session.commerce_session_id, ['10OFF'], { idempotencyKey: `${ns}-discount` });
  log(`discount ${discounted.applied.join(', ')}: ${discounted.session.total} (saved ${discounted.session.savings})`);

  // 7. The principal approves the session's current total.
  const s = discounted.session;
  const signature = signApproval(
    { commerceSessionId: s.commerce_session_id, decision: 'approve', approverId: principal.agentId, total: s.total, currency: s.currency },
    principal.keys.privateKey,
  );
  await principal.client.checkout.submitApproval(s.commerce_session_id, { decision: 'approve', approverId: principal.agentId, signature });

  // 8. Complete: hold on the wallet → the merchant completes → paid to the merchant, receipt signed.
  const done = await shopper.client.checkout.complete(s.commerce_session_id, { idempotencyKey: `${ns}-complete` });
  if (!done.purchase) throw new Error(`no purchase: session ${done.session.status}`);
  const purchase = done.purchase;
  const receiptVerified = verifyReceipt(purchase.receipt as Parameters<typeof verifyReceipt>[0], exchangeKey);
  log(`purchase ${purchase.deal_id}: ${purchase.amount} ${purchase.currency} to ${purchase.merchant_domain}, receipt signature ${receiptVerified ? 'valid' : 'INVALID'}`);

  // 9. The casefile of every message exchanged with the merchant, verified by the exchange.
  const verdict = await shopper.client.checkout.verifyCasefile(s.commerce_session_id);
  log(`casefile ${verdict.valid ? 'VALID' : 'INVALID'} (${verdict.checks.length} checks)`);

  const balance = await shopper.client.wallets.getBalance(shopper.agentId);
  const usdAvailable = balance.balances.find((b) => b.currency === 'USD')?.available ?? '0';
  log(`shopper USD available: ${usdAvailable}`);
  return { shopperId: shopper.agentId, principalId: principal.agentId, purchase, receiptVerified, casefileValid: verdict.valid, usdAvailable };
}

if (require.main === module) {
  const baseUrl = process.env['EXCHANGE_URL'] ?? 'http://127.0.0.1:8080';
  const operatorToken = process.env['OPERATOR_TOKEN'];
  if (!operatorToken) {
    process.stderr.write('set OPERATOR_TOKEN (printed by `npm start`)\n');
    process.exit(2);
  }
  delegatedCheckout({ baseUrl, operatorToken, log: (line) => process.stdout.write(`${line}\n`) }).then(
    (outcome) => process.exit(outcome.receiptVerified && outcome.casefileValid ? 0 : 1),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
