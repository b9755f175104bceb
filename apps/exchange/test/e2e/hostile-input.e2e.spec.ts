import { http } from './http';
import { future, HOUR, MarketHttp, money } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { newKey, walletPath } from './wallet-http';

// Issue 12, finding 1: a money or market request whose strings hold non-ASCII, RTL digits, emoji,
// NUL or a lone surrogate once made the service's error trailer throw inside grpc-js, and the
// unhandled rejection stopped the whole process. Every such request must now be a 4xx
// problem+json, money fields exactly 400, and the exchange must keep answering.

const HOSTILE = ['é', '١٢', '🚀', 'a\u0000b', '\ud800', '12é', '٣.٥'];

let stack: Stack;
let m: MarketHttp;
let buyer: RawAgent;
let seller: RawAgent;
let verifier: RawAgent;
let contractId: string;
let holdId: string;

beforeAll(async () => {
  // Hundreds of requests by three agents: lift the per-agent limit so 429 never hides a status.
  stack = await bootStack({ env: { RATE_LIMIT_SANDBOX_UNVERIFIED: '100000' } });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
  buyer = await m.newAgent('hostile-buyer');
  seller = await m.newAgent('hostile-seller');
  verifier = await m.newAgent('hostile-verifier');
  await m.fund(buyer, '150');
  contractId = (await m.openContract(buyer)).contract_id;
  const hold = await m.expectStatus(m.as(buyer, 'POST', walletPath(buyer, '/holds'), { amount: '5', currency: 'CREDIT', idempotency_key: newKey('hold') }), 201);
  holdId = hold.hold_id;
  await m.expectStatus(m.as(verifier, 'POST', '/v1/verifiers', { name: 'Checker' }), 201);
});

afterAll(async () => {
  await stack?.stop();
});

/** Sets `value` at a dotted path of a copy of `body`. */
function withField(body: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let target = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1) as string] = value;
  return copy;
}

interface Case {
  name: string;
  agent: () => RawAgent;
  path: () => string;
  body: () => Record<string, unknown>;
  /** Amount and currency fields: every hostile value is exactly 400. */
  money: string[];
  /** Free-text fields: NUL is 400, the rest any 4xx or a success, never 5xx. */
  text: string[];
}

const key = () => newKey('hostile');
const CASES: Case[] = [
  { name: 'faucet', agent: () => buyer, path: () => walletPath(buyer, '/faucet'), body: () => ({ amount: '1', currency: 'CREDIT', category: 'c', idempotency_key: key() }), money: ['amount', 'currency'], text: ['category', 'idempotency_key'] },
  { name: 'transfer', agent: () => buyer, path: () => walletPath(buyer, '/transfer'), body: () => ({ to_agent_id: seller.agentId, amount: '0.01', currency: 'CREDIT', memo: 'm', idempotency_key: key() }), money: ['amount', 'currency'], text: ['memo', 'to_agent_id'] },
  { name: 'hold', agent: () => buyer, path: () => walletPath(buyer, '/holds'), body: () => ({ amount: '0.01', currency: 'CREDIT', reference: 'r', idempotency_key: key() }), money: ['amount', 'currency'], text: ['reference', 'expires_at'] },
  { name: 'hold consume', agent: () => buyer, path: () => walletPath(buyer, `/holds/${holdId}/consume`), body: () => ({ to_agent_id: seller.agentId, amount: '9999', idempotency_key: key() }), money: ['amount'], text: ['to_agent_id'] },
  { name: 'deposit', agent: () => buyer, path: () => walletPath(buyer, '/deposits'), body: () => ({ amount: '1', currency: 'USD', method: 'sandbox', reference: 'r', idempotency_key: key() }), money: ['amount', 'currency'], text: ['reference', 'method'] },
  { name: 'withdrawal', agent: () => buyer, path: () => walletPath(buyer, '/withdrawals'), body: () => ({ amount: '1', currency: 'CREDIT', payout_destination_id: 'pod_x', idempotency_key: key() }), money: ['amount', 'currency'], text: ['payout_destination_id'] },
  { name: 'contract budget', agent: () => buyer, path: () => '/v1/contracts', body: () => m.contractBody({ idempotency_key: key() }), money: ['budget.amount', 'budget.currency'], text: ['title', 'description', 'acceptance_criteria', 'deadline'] },
  { name: 'offer price', agent: () => seller, path: () => `/v1/contracts/${contractId}/offers`, body: () => ({ price: money('10'), eta: future(12 * HOUR), terms: 't', idempotency_key: key() }), money: ['price.amount', 'price.currency'], text: ['terms', 'eta'] },
  { name: 'listing price', agent: () => seller, path: () => '/v1/listings', body: () => ({ title: 'Summaries', price: money('10'), turnaround: 'PT2H', idempotency_key: key() }), money: ['price.amount', 'price.currency'], text: ['title', 'turnaround'] },
  { name: 'verifier fee', agent: () => verifier, path: () => '/v1/verifiers', body: () => ({ name: 'Checker', fee: money('1'), idempotency_key: key() }), money: ['fee.amount', 'fee.currency'], text: ['name'] },
  { name: 'verifier listing price', agent: () => verifier, path: () => '/v1/verifier-listings', body: () => ({ title: 'Checks', price: money('1'), turnaround: 'PT2H', idempotency_key: key() }), money: ['price.amount', 'price.currency'], text: ['title', 'turnaround'] },
];

describe('hostile strings on every money and market route', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: money fields 400, NUL 400, never 5xx, process alive', async (_name, c) => {
    const seen: string[] = [];
    for (const field of [...c.money, ...c.text]) {
      for (const value of HOSTILE) {
        const res = await m.as(c.agent(), 'POST', c.path(), withField(c.body(), field, value));
        const label = `${field}=${JSON.stringify(value)} → ${res.status} ${res.body?.code ?? ''}`;
        seen.push(label);
        expect({ label, problem: res.headers.get('content-type') ?? '' }).toEqual({ label, problem: res.status >= 400 ? expect.stringContaining('application/problem+json') : expect.any(String) });
        if (c.money.includes(field) || value.includes('\u0000')) expect({ label, status: res.status }).toEqual({ label, status: 400 });
        else expect({ label, below500: res.status < 500 }).toEqual({ label, below500: true });
      }
    }
    expect(seen.length).toBeGreaterThan(0);
    const health = await http(stack.baseUrl, 'GET', '/health');
    expect(health.status).toBe(200);
  });

  it('leaves the ledger consistent', async () => {
    await m.expectLedgerOk();
  });
});
