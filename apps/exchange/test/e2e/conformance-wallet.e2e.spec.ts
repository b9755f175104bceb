import { randomBytes } from 'node:crypto';
import { expectProblem, http } from './http';
import { MarketHttp, money } from './market-http';
import { RawAgent, uniqueAgentId } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { eventually, newKey, WalletHttp, walletPath } from './wallet-http';

// Issue 13, wallet and identity conformance, end to end through the gateway:
//  6. the faucet in sandbox at every identity level (capabilities are cumulative) and not at all
//     in mainnet mode (403 faucet_unavailable); no level message that contradicts itself;
//  8. currencies are CREDIT or ISO 4217 codes (QQQ refused with 400 unsupported_currency naming
//     the field), in the wallet and the market;
// 10. every wallet route of an agent identity does not know is 404 agent_not_found, like the wallet.

const CURRENCY_MESSAGE = 'is not a supported currency: CREDIT or an ISO 4217 code such as USD';

describe('sandbox', () => {
  let stack: Stack;
  let m: MarketHttp;

  beforeAll(async () => {
    stack = await bootStack({ shared: true });
    m = new MarketHttp(stack.baseUrl, stack.operatorToken);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function newAgent(name: string): Promise<RawAgent> {
    const agent = new RawAgent(uniqueAgentId(name));
    await m.register(agent);
    return agent;
  }

  describe('faucet and identity levels (item 6)', () => {
    it('grants the faucet at MAINNET_BASIC and above, as at SANDBOX_UNVERIFIED', async () => {
      const alice = await newAgent('lvl-faucet');
      await m.expectStatus(m.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '5', category: 'lvl', idempotency_key: newKey() }), 201);
      let total = 5;
      for (const level of ['MAINNET_BASIC', 'MAINNET_ATTESTED']) {
        await m.expectStatus(m.op('POST', `/v1/agents/${alice.agentId}/identity_level`, { identity_level: level, reason: 'issue 13 e2e' }), 200);
        // wallet-ledger may hold the old level for AGENT_CACHE_TTL_MS; the faucet must grant either way.
        const grant = await m.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '5', category: `lvl-${level}`, idempotency_key: newKey() });
        expect({ level, status: grant.status, body: grant.body }).toMatchObject({ level, status: 201, body: { agent_id: alice.agentId, amount: '5', currency: 'CREDIT' } });
        total += 5;
      }
      expect(await m.balance(alice)).toEqual({ available: String(total), held: '0' });
    });

    it('still refuses a withdrawal below MAINNET_ATTESTED, naming the required and the current level without contradiction', async () => {
      const bob = await newAgent('lvl-withdraw');
      await m.expectStatus(m.as(bob, 'POST', walletPath(bob, '/faucet'), { amount: '10', category: 'w', idempotency_key: newKey() }), 201);
      const destination = await m.expectStatus(
        m.as(bob, 'POST', walletPath(bob, '/payout_destinations'), { type: 'sandbox', details: { account: 'x' }, label: 'sandbox' }),
        201,
      );
      const refused = expectProblem(
        await m.as(bob, 'POST', walletPath(bob, '/withdrawals'), { amount: '1', currency: 'CREDIT', payout_destination_id: destination.payout_destination_id, idempotency_key: newKey() }),
        403,
        'identity_level_insufficient',
      );
      expect(refused).toMatchObject({ required: 'MAINNET_ATTESTED', current: 'SANDBOX_UNVERIFIED' });
      expect(refused.detail).toBe('identity level MAINNET_ATTESTED or higher is required; this agent is SANDBOX_UNVERIFIED');
      // Once at MAINNET_ATTESTED the same withdrawal goes through (the cache may lag a moment).
      await m.expectStatus(m.op('POST', `/v1/agents/${bob.agentId}/identity_level`, { identity_level: 'MAINNET_BASIC', reason: 'e2e' }), 200);
      await m.expectStatus(m.op('POST', `/v1/agents/${bob.agentId}/identity_level`, { identity_level: 'MAINNET_ATTESTED', reason: 'e2e' }), 200);
      const accepted = await eventually(
        () => m.as(bob, 'POST', walletPath(bob, '/withdrawals'), { amount: '1', currency: 'CREDIT', payout_destination_id: destination.payout_destination_id, idempotency_key: newKey() }),
        (r) => r.status !== 403,
        40,
      );
      expect(accepted.status).toBe(201);
    });
  });

  describe('currencies (item 8)', () => {
    it('refuses QQQ, usd and XXX on every wallet money route with 400 unsupported_currency naming /currency; moves nothing', async () => {
      const alice = await newAgent('cur-alice');
      const bob = await newAgent('cur-bob');
      await m.expectStatus(m.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '50', category: 'cur', idempotency_key: newKey() }), 201);
      for (const currency of ['QQQ', 'usd', 'XXX']) {
        for (const [suffix, body] of [
          ['/transfer', { to_agent_id: bob.agentId, amount: '1', currency }],
          ['/holds', { amount: '1', currency }],
          ['/deposits', { amount: '1', currency, method: 'sandbox' }],
          ['/faucet', { amount: '1', currency, category: 'cur' }],
        ] as const) {
          const problem = expectProblem(await m.as(alice, 'POST', walletPath(alice, suffix), { ...body, idempotency_key: newKey() }), 400, 'unsupported_currency');
          expect({ suffix, errors: problem.errors }).toEqual({ suffix, errors: [{ pointer: '/currency', message: CURRENCY_MESSAGE }] });
        }
      }
      expect(await m.balance(alice)).toEqual({ available: '50', held: '0' });
      expect(await m.balance(bob)).toEqual({ available: '0', held: '0' });
    });

    it('accepts ISO 4217 codes: a sandbox deposit in EUR and a transfer in it', async () => {
      const alice = await newAgent('cur-eur');
      const bob = await newAgent('cur-eur-to');
      const deposit = await m.expectStatus(m.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '20', currency: 'EUR', method: 'sandbox', idempotency_key: newKey() }), 201);
      expect(deposit).toMatchObject({ currency: 'EUR' });
      if (deposit.status === 'pending') {
        await m.expectStatus(m.op('POST', walletPath(alice, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey() }), 200);
      }
      expect(await m.balance(alice, 'EUR')).toEqual({ available: '20', held: '0' });
      await m.expectStatus(m.as(alice, 'POST', walletPath(alice, '/transfer'), { to_agent_id: bob.agentId, amount: '7', currency: 'EUR', idempotency_key: newKey() }), 201);
      expect(await m.balance(bob, 'EUR')).toEqual({ available: '7', held: '0' });
    });

    it('refuses a contract budget and an offer price in QQQ (400 unsupported_currency naming the field)', async () => {
      const buyer = await newAgent('cur-buyer');
      const seller = await newAgent('cur-seller');
      const contract = expectProblem(await m.createContract(buyer, { budget: money('100', 'QQQ') }), 400, 'unsupported_currency');
      expect(contract.errors).toEqual([{ pointer: '/budget/currency', message: CURRENCY_MESSAGE }]);
      const open = await m.expectStatus(m.createContract(buyer), 201);
      const offer = expectProblem(await m.offer(seller, open.contract_id, '80', { price: money('80', 'QQQ') }), 400, 'unsupported_currency');
      expect(offer.errors).toEqual([{ pointer: '/price/currency', message: CURRENCY_MESSAGE }]);
    });
  });

  describe('wallet routes of an unknown agent (item 10)', () => {
    it('answers 404 agent_not_found on every wallet read, as the wallet itself does', async () => {
      const nobody = uniqueAgentId('nobody');
      for (const suffix of ['', '/deposits', '/payout_destinations', '/withdrawals/wdr_0190a3c1-0000-7000-8000-000000000000']) {
        expectProblem(await m.op('GET', walletPath(nobody, suffix)), 404, 'agent_not_found');
      }
    });

    it('answers 404 agent_not_found on every wallet mutation too, moving nothing', async () => {
      const nobody = uniqueAgentId('nobody-mut');
      const known = await newAgent('known');
      const cases: Array<[string, unknown]> = [
        ['/faucet', { amount: '1', category: 'c', idempotency_key: newKey() }],
        ['/transfer', { to_agent_id: known.agentId, amount: '1', currency: 'CREDIT', idempotency_key: newKey() }],
        ['/holds', { amount: '1', currency: 'CREDIT', idempotency_key: newKey() }],
        ['/deposits', { amount: '1', currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey() }],
        ['/payout_destinations', { type: 'sandbox', details: { account: 'x' }, label: 'x' }],
        ['/withdrawals', { amount: '1', currency: 'CREDIT', payout_destination_id: 'pod_0190a3c1-0000-7000-8000-000000000000', idempotency_key: newKey() }],
      ];
      for (const [suffix, body] of cases) {
        expectProblem(await m.op('POST', walletPath(nobody, suffix), body), 404, 'agent_not_found');
      }
      expect(await m.balance(known)).toEqual({ available: '0', held: '0' });
    });

    it('still answers an empty page to a known agent with no deposits or destinations', async () => {
      const fresh = await newAgent('fresh');
      expect(await m.expectStatus(m.op('GET', walletPath(fresh, '/deposits')), 200)).toEqual({ data: [], next_cursor: null });
      expect(await m.expectStatus(m.op('GET', walletPath(fresh, '/payout_destinations')), 200)).toEqual({ data: [], next_cursor: null });
    });
  });
});

describe('mainnet mode (EXCHANGE_ENV=mainnet)', () => {
  let stack: Stack;
  let w: WalletHttp;
  // Mainnet takes only OPERATOR_TOKENS (named tokens); the stack's sandbox token is not used there.
  const token = `mainnet-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    stack = await bootStack({ env: { EXCHANGE_ENV: 'mainnet', OPERATOR_TOKENS: `e2e=${token}` } });
    w = new WalletHttp(stack.baseUrl, token);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('has no faucet: 403 faucet_unavailable for every level and request, nothing granted', async () => {
    const health = await http(stack.baseUrl, 'GET', '/health');
    expect(health.body).toMatchObject({ environment: 'mainnet' });
    const agent = new RawAgent(uniqueAgentId('mainnet'));
    await w.expectStatus(w.op('POST', '/v1/agents', { ...agent.registrationBody(), identity_level: 'MAINNET_BASIC' }), 201);
    for (const body of [
      { amount: '5', category: 'c', idempotency_key: newKey() },
      { amount: '5', currency: 'CREDIT', category: 'c', idempotency_key: newKey() },
    ]) {
      const problem = expectProblem(await w.as(agent, 'POST', walletPath(agent, '/faucet'), body), 403, 'faucet_unavailable');
      expect(problem.detail).toMatch(/only in sandbox/);
      expect(problem.code).not.toBe('identity_level_insufficient');
    }
    expectProblem(await w.op('POST', walletPath(agent, '/faucet'), { amount: '5', category: 'c', idempotency_key: newKey() }), 403, 'faucet_unavailable');
    expect(await w.balance(agent)).toEqual({ available: '0', held: '0' });
  });
});
