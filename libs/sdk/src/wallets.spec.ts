import { ExchangeClient } from './client';
import { ExchangeApiError, ExchangeNetworkError } from './errors';
import { idempotencyOf } from './idempotency';
import { nodeKeyPair, nodeSha256Hex, nodeVerify } from './testing/node-ed25519';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';

const AGENT = 'acme:agent:buyer';
const hold = { hold_id: 'hld_1', status: 'active' };

describe('client.wallets', () => {
  let server: RecordingServer;
  let client: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    client = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  const lastBody = () => JSON.parse(server.requests.at(-1)!.body.toString('utf8'));

  it('sends each mutation to its path with snake_case fields and the idempotency key in the body', async () => {
    const cases: Array<[() => Promise<unknown>, string, Record<string, unknown>]> = [
      [() => client.wallets.faucet(AGENT, { amount: '50', category: 'testing', idempotencyKey: 'k1' }), '/faucet', { amount: '50', category: 'testing', idempotency_key: 'k1' }],
      [
        () => client.wallets.transfer(AGENT, { toAgentId: 'acme:agent:seller', amount: '2.5', currency: 'CREDIT', memo: 'm', idempotencyKey: 'k2' }),
        '/transfer',
        { to_agent_id: 'acme:agent:seller', amount: '2.5', currency: 'CREDIT', memo: 'm', idempotency_key: 'k2' },
      ],
      [
        () => client.wallets.createHold(AGENT, { amount: '30', currency: 'CREDIT', expiresAt: new Date('2030-01-01T00:00:00Z'), reference: 'r', idempotencyKey: 'k3' }),
        '/holds',
        { amount: '30', currency: 'CREDIT', expires_at: '2030-01-01T00:00:00.000Z', reference: 'r', idempotency_key: 'k3' },
      ],
      [() => client.wallets.releaseHold(AGENT, 'hld_1', { idempotencyKey: 'k4' }), '/holds/hld_1/release', { idempotency_key: 'k4' }],
      [
        () => client.wallets.consumeHold(AGENT, 'hld_1', { toAgentId: 'acme:agent:seller', idempotencyKey: 'k5' }),
        '/holds/hld_1/consume',
        { to_agent_id: 'acme:agent:seller', idempotency_key: 'k5' },
      ],
      [
        () => client.wallets.createDeposit(AGENT, { amount: '100', currency: 'CREDIT', method: 'sandbox', idempotencyKey: 'k6' }),
        '/deposits',
        { amount: '100', currency: 'CREDIT', method: 'sandbox', idempotency_key: 'k6' },
      ],
      [() => client.wallets.confirmDeposit(AGENT, 'dep_1', { idempotencyKey: 'k7' }), '/deposits/dep_1/confirm', { idempotency_key: 'k7' }],
      [() => client.wallets.expireDeposit(AGENT, 'dep_1', { idempotencyKey: 'k8' }), '/deposits/dep_1/expire', { idempotency_key: 'k8' }],
      [
        () => client.wallets.createPayoutDestination(AGENT, { type: 'sandbox', details: { a: 'b' }, label: 'l', idempotencyKey: 'k9' }),
        '/payout_destinations',
        { type: 'sandbox', details: { a: 'b' }, label: 'l', idempotency_key: 'k9' },
      ],
      [
        () => client.wallets.createWithdrawal(AGENT, { amount: '25', currency: 'CREDIT', payoutDestinationId: 'pod_1', idempotencyKey: 'k10' }),
        '/withdrawals',
        { amount: '25', currency: 'CREDIT', payout_destination_id: 'pod_1', idempotency_key: 'k10' },
      ],
      [() => client.wallets.cancelWithdrawal(AGENT, 'wdr_1', { idempotencyKey: 'k11' }), '/withdrawals/wdr_1/cancel', { idempotency_key: 'k11' }],
    ];
    for (const [call, suffix, body] of cases) {
      server.respond(json(201, hold));
      await call();
      const req = server.requests.at(-1)!;
      expect({ method: req.method, url: req.url }).toEqual({ method: 'POST', url: `/v1/wallets/${AGENT}${suffix}` });
      expect(lastBody()).toEqual(body);
    }
  });

  it('sends the reads to their paths with their queries', async () => {
    server.respond(
      json(200, { agent_id: AGENT, balances: [], as_of: 'x' }),
      json(200, { data: [], next_cursor: null }),
      json(200, { data: [], next_cursor: null }),
      json(200, { withdrawal_id: 'wdr_1' }),
    );
    await client.wallets.getBalance(AGENT);
    await client.wallets.listDeposits(AGENT, { limit: 5, status: 'pending' });
    await client.wallets.listPayoutDestinations(AGENT, { cursor: 'c' });
    await client.wallets.getWithdrawal(AGENT, 'wdr_1');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /v1/wallets/${AGENT}`,
      `GET /v1/wallets/${AGENT}/deposits?limit=5&status=pending`,
      `GET /v1/wallets/${AGENT}/payout_destinations?cursor=c`,
      `GET /v1/wallets/${AGENT}/withdrawals/wdr_1`,
    ]);
  });

  it('walks every page of deposits', async () => {
    server.respond(json(200, { data: [{ deposit_id: 'a' }], next_cursor: 'n1' }), json(200, { data: [{ deposit_id: 'b' }], next_cursor: null }));
    const ids: string[] = [];
    for await (const d of client.wallets.iterateDeposits(AGENT, { limit: 1 })) ids.push(d.deposit_id);
    expect(ids).toEqual(['a', 'b']);
    expect(server.requests[1]!.url).toBe(`/v1/wallets/${AGENT}/deposits?limit=1&cursor=n1`);
  });

  it('generates a fresh key only when the caller passes none, and tells which key and whether replayed', async () => {
    server.respond(json(201, hold), json(201, hold), json(201, hold, { 'idempotent-replayed': 'true' }));
    const a = await client.wallets.createHold(AGENT, { amount: '1', currency: 'CREDIT' });
    const keyA = lastBody().idempotency_key;
    await client.wallets.createHold(AGENT, { amount: '1', currency: 'CREDIT' });
    const keyB = lastBody().idempotency_key;
    expect(keyA).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(keyB).not.toBe(keyA);
    expect(idempotencyOf(a)).toEqual({ key: keyA, replayed: false, status: 201, requestId: 'req_test_1' });

    const replay = await client.wallets.createHold(AGENT, { amount: '1', currency: 'CREDIT', idempotencyKey: keyA });
    expect(idempotencyOf(replay)).toMatchObject({ key: keyA, replayed: true });
    // The info is hidden: the resource compares and serializes as the body alone.
    expect(replay).toEqual(hold);
    expect(JSON.stringify(replay)).toBe(JSON.stringify(hold));
  });

  it('attaches the key to an API error and to a network error, so the caller can retry with it', async () => {
    server.respond(problem(403, 'faucet_cap_exceeded', 'cap', { resets_at: '2026-11-22T00:00:00.000Z', remaining_today: '0', category: 'c' }));
    const apiErr = await client.wallets.faucet(AGENT, { amount: '300', category: 'c' }).catch((e: unknown) => e);
    expect(apiErr).toBeInstanceOf(ExchangeApiError);
    expect(apiErr).toMatchObject({ status: 403, code: 'faucet_cap_exceeded', idempotencyKey: lastBody().idempotency_key });
    expect((apiErr as ExchangeApiError).details).toMatchObject({ resets_at: '2026-11-22T00:00:00.000Z' });

    const offline = new ExchangeClient({ baseUrl: 'http://127.0.0.1:1', operatorToken: 'op' });
    const netErr = await offline.wallets.transfer(AGENT, { toAgentId: 'x:agent:y', amount: '1', currency: 'CREDIT', idempotencyKey: 'retry-me' }).catch((e: unknown) => e);
    expect(netErr).toBeInstanceOf(ExchangeNetworkError);
    expect((netErr as ExchangeNetworkError).idempotencyKey).toBe('retry-me');
  });

  it('signs an agent’s mutation over the body that carries the key', async () => {
    const keys = nodeKeyPair();
    const agent = new ExchangeClient({ baseUrl: server.url, agent: { agentId: AGENT, privateKey: keys.privateKey } });
    server.respond(json(201, hold));
    await agent.wallets.releaseHold(AGENT, 'hld_1', { idempotencyKey: 'sig-key' });
    const req = server.requests[0]!;
    const canonical = JSON.stringify({ agent_id: AGENT, body_sha256: nodeSha256Hex(req.body), method: 'POST', nonce: req.headers['x-agent-nonce'], path: req.url, timestamp: req.headers['x-agent-timestamp'] });
    expect(nodeVerify(canonical, req.headers['x-agent-signature'] as string, keys.publicKey)).toBe(true);
    expect(JSON.parse(req.body.toString('utf8'))).toEqual({ idempotency_key: 'sig-key' });
  });
});

describe('client.receipts and client.ledger', () => {
  let server: RecordingServer;
  beforeEach(async () => {
    server = await startRecordingServer();
  });
  afterEach(() => server.close());

  it('GETs the receipt and the ledger check', async () => {
    const client = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op' });
    server.respond(json(200, { receipt_id: 'rcpt_1' }), json(200, { ok: true }));
    await client.receipts.get('rcpt_1');
    await client.ledger.check();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/receipts/rcpt_1', 'GET /v1/ledger/check']);
  });
});
