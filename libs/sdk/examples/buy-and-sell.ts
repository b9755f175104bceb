// End-to-end with the SDK: a buyer and a seller agent, from registration to a settled contract
// whose receipt is checked against the exchange public key published by /health.
//
//   npm start                                      # in another terminal; prints the operator token
//   EXCHANGE_URL=http://127.0.0.1:8080 OPERATOR_TOKEN=<token> npx tsx libs/sdk/examples/buy-and-sell.ts
//
// The flow (verification mode `verifier`):
//   operator registers buyer, seller and verifier → buyer takes faucet credits → verifier registers
//   its profile → seller lists its service → buyer opens a contract → seller offers → operator
//   awards (escrow held on the buyer's wallet) → seller delivers → verifier signs a passing
//   report → contract settled → buyer reads the receipt and verifies its signature offline.
import { randomBytes } from 'node:crypto';
import {
  ExchangeClient,
  generateAgentKeys,
  signVerificationReport,
  verifyReceipt,
  type Contract,
  type Receipt,
  type VerificationReport,
} from '../src/index';

export interface BuyAndSellOptions {
  baseUrl: string;
  operatorToken: string;
  /** Agent namespace; a fresh one by default so the example can run again on the same exchange. */
  namespace?: string;
  log?: (line: string) => void;
}

export interface BuyAndSellOutcome {
  buyerId: string;
  sellerId: string;
  verifierId: string;
  contract: Contract;
  report: VerificationReport;
  receipt: Receipt;
  receiptVerified: boolean;
  balances: Record<string, string>;
}

export async function buyAndSell(opts: BuyAndSellOptions): Promise<BuyAndSellOutcome> {
  const log = opts.log ?? (() => undefined);
  const ns = opts.namespace ?? `demo-${randomBytes(3).toString('hex')}`;
  const operator = new ExchangeClient({ baseUrl: opts.baseUrl, operatorToken: opts.operatorToken });

  // 1. The exchange key we trust for receipts, from /health.
  const health = await operator.health();
  if (!health.exchange_public_key) throw new Error('the exchange publishes no public key on /health');
  const exchangeKey = health.exchange_public_key;

  // 2. Three agents, each with its own ed25519 key; the operator registers them (key-ownership proof).
  const agent = async (name: string) => {
    const keys = generateAgentKeys();
    const agentId = `${ns}:agent:${name}`;
    await operator.agents.registerAgent({ agentId, keys });
    return { agentId, client: new ExchangeClient({ baseUrl: opts.baseUrl, agent: { agentId, privateKey: keys.privateKey } }), keys };
  };
  const buyer = await agent('buyer');
  const seller = await agent('seller');
  const verifier = await agent('verifier');
  log(`registered ${buyer.agentId}, ${seller.agentId}, ${verifier.agentId}`);

  // 3. Sandbox credits for the buyer (agent-signed: an agent tops up its own wallet).
  await buyer.client.wallets.faucet(buyer.agentId, { amount: '150', category: 'demo', idempotencyKey: `${ns}-faucet` });

  // 4. The verifier's profile, and the seller's listing.
  await verifier.client.verifiers.register({ name: 'Strict summary checker', tags: ['nlp'], idempotencyKey: `${ns}-verifier` });
  const listing = await seller.client.listings.create({
    title: 'Ticket summaries',
    tags: ['nlp'],
    price: { amount: '80', currency: 'CREDIT' },
    turnaround: 'PT24H',
    idempotencyKey: `${ns}-listing`,
  });

  // 5. The buyer opens a contract (the party fields default to the signing agent).
  const opened = await buyer.client.contracts.create({
    title: 'Summarise 40 support tickets',
    tags: ['nlp'],
    budget: { amount: '100', currency: 'CREDIT' },
    deadline: new Date(Date.now() + 24 * 3600 * 1000),
    acceptanceCriteria: 'One paragraph per ticket, under 80 words each',
    verificationMode: 'verifier',
    verifierId: verifier.agentId,
    listingId: listing.listing_id,
    idempotencyKey: `${ns}-contract`,
  });
  log(`contract ${opened.contract_id} ${opened.status}`);

  // 6. The seller offers; the operator awards: the price is held on the buyer's wallet.
  const offer = await seller.client.contracts.offers.submit(opened.contract_id, {
    price: { amount: '80', currency: 'CREDIT' },
    eta: new Date(Date.now() + 12 * 3600 * 1000),
    terms: 'Delivered as JSON',
    idempotencyKey: `${ns}-offer`,
  });
  const awarded = await operator.contracts.award(opened.contract_id, offer.offer_id, { idempotencyKey: `${ns}-award` });
  log(`contract ${awarded.status}, escrow ${awarded.escrow_status} (${awarded.price?.amount} ${awarded.price?.currency})`);

  // 7. The seller delivers.
  const result = await seller.client.contracts.results.submit(opened.contract_id, {
    summary: '40 summaries',
    artifactRefs: [`sha256:${'0'.repeat(64)}`],
    payload: { summaries: 40 },
    idempotencyKey: `${ns}-result`,
  });

  // 8. The verifier signs a passing report over canonical {verifier_id, result_id, verdict, score, checks}.
  const draft = {
    verifierId: verifier.agentId,
    resultId: result.result_id,
    verdict: 'pass' as const,
    score: 0.95,
    checks: [{ name: 'count', ok: true, detail: '40/40' }, { name: 'length', ok: true }],
  };
  const report = await verifier.client.contracts.verify(opened.contract_id, {
    ...draft,
    signature: signVerificationReport(draft, verifier.keys.privateKey),
    idempotencyKey: `${ns}-verify`,
  });
  log(`verification ${report.verdict} (score ${report.score})`);

  // 9. Settled: the seller is paid the price less the fee. The receipt is checked offline.
  const contract = await buyer.client.contracts.get(opened.contract_id);
  if (contract.status !== 'settled') throw new Error(`expected a settled contract, got ${contract.status}`);
  const receipt = await buyer.client.contracts.receipt(opened.contract_id);
  const receiptVerified = verifyReceipt(receipt, exchangeKey);
  log(`contract ${contract.status}; receipt ${receipt.receipt_id}: ${receipt.amount} ${receipt.currency} (fee ${receipt.fee}), signature ${receiptVerified ? 'valid' : 'INVALID'}`);

  const balances: Record<string, string> = {};
  for (const a of [buyer, seller]) {
    const snapshot = await a.client.wallets.getBalance(a.agentId);
    balances[a.agentId] = snapshot.balances.find((b) => b.currency === 'CREDIT')?.available ?? '0';
  }
  log(`balances: ${JSON.stringify(balances)}`);
  return { buyerId: buyer.agentId, sellerId: seller.agentId, verifierId: verifier.agentId, contract, report, receipt, receiptVerified, balances };
}

if (require.main === module) {
  const baseUrl = process.env['EXCHANGE_URL'] ?? 'http://127.0.0.1:8080';
  const operatorToken = process.env['OPERATOR_TOKEN'];
  if (!operatorToken) {
    process.stderr.write('set OPERATOR_TOKEN (printed by `npm start`)\n');
    process.exit(2);
  }
  buyAndSell({ baseUrl, operatorToken, log: (line) => process.stdout.write(`${line}\n`) }).then(
    (outcome) => process.exit(outcome.receiptVerified ? 0 : 1),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
