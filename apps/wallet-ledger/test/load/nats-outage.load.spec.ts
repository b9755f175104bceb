import { findFreePortRange } from '@exchange/db';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describeWithExecutable, findExecutable } from '@exchange/testing';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf, eventually, inParallel, outcome, tally } from './support/outcome';
import { expectLedgerConsistent, startLoadLedger, type LoadLedger } from './support/ledger';
import { startNatsServer, type NatsServerProcess } from './support/nats-server';

// NATS goes away under a running wallet-ledger: mutations keep succeeding (the outbox holds their
// events), and once NATS is back on the same port and store the relay drains the outbox into the
// stream — exactly one message per committed mutation, none lost, none doubled.
const MUTATIONS = 1_000; // 600 transfers, 200 hold creations, 200 releases
const IN_FLIGHT = 8;
const NATS_SERVER = findExecutable('nats-server') ? 'nats-server' : '/usr/sbin/nats-server';

describeWithExecutable('wallet-ledger through a NATS outage', NATS_SERVER, 'apt-get install nats-server', (natsBinary) => {
  let storeDir: string;
  let port: number;
  let nats: NatsServerProcess | undefined;
  let ledger: LoadLedger | undefined;
  const run = randomBytes(3).toString('hex');
  const wallets = Array.from({ length: 4 }, (_, i) => `outage-${run}:agent:w${i}`);

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'wallet-nats-outage-'));
    await chmod(storeDir, 0o755);
    port = await findFreePortRange(1); // below the ephemeral range: still free when the process restarts on it
    nats = await startNatsServer(natsBinary, port, storeDir);
    ledger = await startLoadLedger({ name: 'load_nats_outage', agents: wallets.map((agentId) => ({ agentId })), env: { NATS_URL: nats.url } });
  });

  afterAll(async () => {
    await ledger?.close();
    await nats?.stop();
    if (storeDir) await rm(storeDir, { recursive: true, force: true });
  });

  const unpublished = async () => (await ledger!.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL')).rows[0].n;

  it(`commits ${MUTATIONS} mutations with NATS down and publishes each exactly once when it is back`, async () => {
    const { client, sql } = ledger!;
    for (const agentId of wallets) {
      await client.faucet({ agentId, amount: '200', currency: 'CREDIT', category: 'outage', idempotencyKey: `fund-${agentId}` });
    }
    await eventually('the funding events published', async () => ((await unpublished()) === 0 ? true : undefined));

    await nats!.stop();
    // Five mutations per cycle, all valid: three transfers, a hold and its release.
    const cycles = await inParallel(MUTATIONS / 5, IN_FLIGHT, async (c) => {
      const me = wallets[c % wallets.length];
      const other = wallets[(c + 1) % wallets.length];
      const results = [];
      for (let t = 0; t < 3; t++) {
        results.push(await outcome(client.transfer({ agentId: me, toAgentId: other, amount: '0.01', currency: 'CREDIT', memo: undefined, idempotencyKey: `c${c}-t${t}` })));
      }
      const hold = await outcome(client.createHold({ agentId: me, amount: '0.5', currency: 'CREDIT', expiresAt: undefined, reference: `c${c}`, idempotencyKey: `c${c}-hold` }));
      results.push(hold);
      if (hold.ok) results.push(await outcome(client.releaseHold({ agentId: me, holdId: hold.value.hold!.holdId, idempotencyKey: `c${c}-release` })));
      return results;
    });
    const results = cycles.flat();
    expect(tally(results.map(codeOf))).toEqual({ ok: MUTATIONS });
    // Nothing could be published while NATS was down: every event waits in the outbox.
    expect(await unpublished()).toBe(MUTATIONS);

    nats = await startNatsServer(natsBinary, port, storeDir);
    await eventually('the outbox drained into NATS', async () => ((await unpublished()) === 0 ? true : undefined), 90_000, 250);

    // The stream holds exactly the outbox: one message per committed mutation, no duplicate.
    const { rows } = await sql.query<{ id: string; type: string }>('SELECT id, type FROM outbox_events');
    expect(rows).toHaveLength(wallets.length + MUTATIONS);
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info('EXCHANGE');
      expect(info.state.messages).toBe(rows.length);
      const stored: string[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
        const msg = await jsm.streams.getMessage('EXCHANGE', { seq });
        if (!msg) continue;
        const envelope = msg.json<{ id: string; type: string }>();
        expect(msg.subject).toBe(envelope.type);
        stored.push(envelope.id);
      }
      expect(new Set(stored).size).toBe(stored.length);
      expect(stored.sort()).toEqual(rows.map((r) => r.id).sort());
      const types = tally(rows.map((r) => r.type));
      expect(types).toEqual({
        'exchange.wallet.faucet.granted': wallets.length,
        'exchange.wallet.transfer.completed': (MUTATIONS / 5) * 3,
        'exchange.wallet.hold.created': MUTATIONS / 5,
        'exchange.wallet.hold.released': MUTATIONS / 5,
      });
    } finally {
      await nc.close();
    }
    await expectLedgerConsistent(client);
  }, 240_000);
});
