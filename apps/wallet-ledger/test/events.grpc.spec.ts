import { createServiceClient } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { agentId, fund, grpcError, key, startTestWallet, type TestWallet } from './wallet-harness';

/** Resolves once `condition` holds, polling (the relay publishes asynchronously after commit). */
async function eventually(condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached');
}

describe('wallet-ledger events: one per committed mutation, published through the outbox', () => {
  let t: TestWallet;
  const a = agentId('evt-a');
  const b = agentId('evt-b');

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_events', agents: [{ agentId: a }, { agentId: b }] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should publish exactly the committed mutations, in order, with their amounts, and nothing for refusals', async () => {
    await fund(t.client, a, '100');
    const transfer = { agentId: a, toAgentId: b, amount: '10', currency: 'CREDIT', idempotencyKey: key() };
    await t.client.transfer(transfer);
    await t.client.transfer(transfer); // replay: no second event
    await grpcError(t.client.transfer({ ...transfer, amount: '1000', idempotencyKey: key() })); // refused
    const { hold } = await t.client.createHold({ agentId: a, amount: '20', currency: 'CREDIT', idempotencyKey: key() });
    await t.client.consumeHold({ agentId: a, holdId: hold!.holdId, toAgentId: b, amount: '5', idempotencyKey: key() });
    await grpcError(t.client.releaseHold({ agentId: a, holdId: hold!.holdId, idempotencyKey: key() })); // invalid_state
    const { deposit } = await t.client.createDeposit({ agentId: a, amount: '3', currency: 'EUR', method: walletV1.DepositMethod.DEPOSIT_METHOD_CRYPTO, idempotencyKey: key() });
    await t.client.expireDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() });

    const expected = [
      ['exchange.wallet.faucet.granted', (d: any) => d.grant.amount === '100'],
      ['exchange.wallet.transfer.completed', (d: any) => d.transfer.amount === '10' && d.transfer.toAgentId === b],
      ['exchange.wallet.hold.created', (d: any) => d.hold.amount === '20' && d.hold.status === 'HOLD_STATUS_ACTIVE'],
      ['exchange.wallet.hold.consumed', (d: any) => d.hold.consumedAmount === '5' && d.hold.releasedAmount === '15'],
      ['exchange.wallet.deposit.created', (d: any) => d.deposit.amount === '3' && d.deposit.currency === 'EUR'],
      ['exchange.wallet.deposit.expired', (d: any) => d.deposit.status === 'DEPOSIT_STATUS_EXPIRED'],
    ] as const;
    const mine = () => t.published.filter((e) => e.subject_id === a);
    await eventually(() => mine().length >= expected.length);
    const events = mine();
    expect(events.map((e) => e.type)).toEqual(expected.map(([type]) => type));
    expected.forEach(([, check], i) => expect(check(events[i].data)).toBe(true));
    for (const e of events) {
      expect(e).toMatchObject({ id: expect.stringMatching(/^evt_/), source: 'wallet-ledger', subject_id: a, occurred_at: expect.any(String) });
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    // Every outbox row was published (published_at set) and matches what the bus delivered.
    await eventually(async () => (await t.sql.query(`SELECT 1 FROM outbox_events WHERE published_at IS NULL`)).rowCount === 0);
    const { rows } = await t.sql.query<{ id: string }>(`SELECT id FROM outbox_events WHERE payload->>'subject_id' = $1 ORDER BY created_at, id`, [a]);
    expect(rows.map((r) => r.id)).toEqual(events.map((e) => e.id));
  });

  it('should carry the gateway\'s actor and trace id', async () => {
    const client = createServiceClient(walletV1.WalletLedgerServiceService, `127.0.0.1:${t.wallet.grpcPort}`);
    try {
      await client.transfer({ agentId: a, toAgentId: b, amount: '1', currency: 'CREDIT', idempotencyKey: key() }, { actor: 'operator:ops', traceId: 'trace-42' });
    } finally {
      client.close();
    }
    const { rows } = await t.sql.query(`SELECT payload FROM outbox_events WHERE payload->>'trace_id' = 'trace-42'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({ type: 'exchange.wallet.transfer.completed', actor: 'operator:ops', trace_id: 'trace-42' });
  });
});
