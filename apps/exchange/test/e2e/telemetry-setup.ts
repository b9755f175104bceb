import { ExchangeClient, generateAgentKeys, type Contract, type OperatorEvent } from '@exchange/sdk';
import { randomBytes } from 'node:crypto';
import { uniqueAgentId } from './raw-agent';
import type { Stack } from './stack';

// The telemetry e2e's history, made through the SDK as agents would: a private buyer's contract
// (a tag of its own) taken to settlement (auto verification: the delivery settles it), then a
// wait until telemetry recorded the settlement (it follows the event stream, a moment later).

export interface TradeAgent {
  agentId: string;
  client: ExchangeClient;
}

export interface SettledTrade {
  operator: ExchangeClient;
  buyer: TradeAgent;
  seller: TradeAgent;
  stranger: TradeAgent;
  tag: string;
  contract: Contract;
  /** Before the contract was created. */
  startedAt: Date;
  /** After telemetry recorded the settlement. */
  recordedAt: Date;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `pred` holds for what `read` answers (telemetry trails the change it records). */
export async function eventually<T>(read: () => Promise<T>, pred: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (pred(value)) return value;
    if (Date.now() > deadline) throw new Error(`telemetry did not show ${what} within ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await sleep(250);
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export async function settleTrade(stack: Stack): Promise<SettledTrade> {
  const operator = new ExchangeClient({ baseUrl: stack.baseUrl, operatorToken: stack.operatorToken });
  const agent = async (name: string): Promise<TradeAgent> => {
    const keys = generateAgentKeys();
    const agentId = uniqueAgentId(name);
    await operator.agents.registerAgent({ agentId, keys });
    return { agentId, client: new ExchangeClient({ baseUrl: stack.baseUrl, agent: { agentId, privateKey: keys.privateKey } }) };
  };
  const buyer = await agent('tel-buyer');
  const seller = await agent('tel-seller');
  const stranger = await agent('tel-stranger');
  const tag = `tel-${randomBytes(4).toString('hex')}`;
  const startedAt = new Date();

  await buyer.client.wallets.faucet(buyer.agentId, { amount: '50', category: 'telemetry-e2e' });
  const opened = await buyer.client.contracts.create({
    title: 'Translate a README to French',
    tags: [tag],
    budget: { amount: '20', currency: 'CREDIT' },
    deadline: new Date(Date.now() + 24 * 3600 * 1000),
    acceptanceCriteria: 'Every sentence translated',
    verificationMode: 'auto',
    buyerPrivate: true,
  });
  const offer = await seller.client.contracts.offers.submit(opened.contract_id, {
    price: { amount: '15', currency: 'CREDIT' },
    eta: new Date(Date.now() + 3600 * 1000),
    terms: 'Markdown kept',
  });
  await operator.contracts.award(opened.contract_id, offer.offer_id);
  await seller.client.contracts.results.submit(opened.contract_id, { summary: 'Translated', artifactRefs: [`sha256:${'1'.repeat(64)}`] });
  const contract = await operator.contracts.get(opened.contract_id);
  if (contract.status !== 'settled') throw new Error(`the contract did not settle: ${contract.status}`);

  await eventually(
    () => operator.telemetry.listOperatorEvents({ contractId: contract.contract_id, eventType: 'exchange.market.contract.settled' }),
    (page) => page.data.length === 1,
    'the settlement',
  );
  return { operator, buyer, seller, stranger, tag, contract, startedAt, recordedAt: new Date() };
}

/** Every operator event of the contract, through the pages. */
export const operatorEventsOf = (trade: SettledTrade): Promise<OperatorEvent[]> =>
  collect(trade.operator.telemetry.iterateOperatorEvents({ contractId: trade.contract.contract_id, limit: 2 }));

/** The Monday (UTC, YYYY-MM-DD) of the week `at` falls in. */
export function mondayOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}
