import { createHealthClient } from '@exchange/platform';
import { runMigrations } from '@exchange/db';
import { testLogger } from '@exchange/testing';
import path from 'node:path';
import { IDENTITY_SERVICE_NAME } from '../src/index';
import { signedRegistration } from './factories/agent.factory';
import { registerRequest, startTestIdentity, type TestIdentity } from './identity-harness';

describe('identity service lifecycle', () => {
  let t: TestIdentity;

  beforeAll(async () => {
    t = await startTestIdentity({ name: 'identity_lifecycle' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should report SERVING once started, for the server and the service name', async () => {
    const health = createHealthClient(`127.0.0.1:${t.identity.grpcPort}`);
    try {
      expect(await health.check('')).toBe('SERVING');
      expect(await health.check(IDENTITY_SERVICE_NAME)).toBe('SERVING');
    } finally {
      health.close();
    }
  });

  it('should keep its data across a restart on the same database, re-running no migration', async () => {
    const { input } = signedRegistration({ extraKeys: 1 });
    const { agent } = await t.client.registerAgent(registerRequest(input));
    await t.client.freezeAgent({ agentId: input.agentId, reason: 'before restart' });

    await t.restart();
    const { agent: after } = await t.client.getAgent({ agentId: input.agentId });
    expect(after).toMatchObject({ agentId: agent!.agentId, keys: agent!.keys, frozenReason: 'before restart' });

    const again = await runMigrations({
      connectionString: t.db.url,
      migrationsDir: path.join(__dirname, '..', 'prisma', 'migrations'),
      logger: testLogger,
    });
    expect(again.applied).toEqual([]);
    const { rows } = await t.sql.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL');
    expect(rows.map((r) => r.migration_name).sort()).toEqual([expect.stringMatching(/^\d{14}_init$/), expect.stringMatching(/^\d{14}_party_aliases$/), expect.stringMatching(/^\d{14}_party_alias_generations$/), expect.stringMatching(/^\d{14}_pubkey_unique$/), expect.stringMatching(/^\d{14}_processed_events_age_index$/)]);
  });

  it('should publish outbox events to the bus', async () => {
    const { input } = signedRegistration();
    await t.client.registerAgent(registerRequest(input));
    // The relay is woken after commit; wait for delivery without a timed assertion.
    for (let i = 0; i < 200 && !t.published.some((e) => e.subject_id === input.agentId); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(t.published.filter((e) => e.subject_id === input.agentId).map((e) => e.type)).toEqual([
      'exchange.identity.agent.registered',
    ]);
    const { rows } = await t.sql.query(`SELECT published_at FROM outbox_events WHERE payload->>'subject_id' = $1`, [input.agentId]);
    // Marked published (possibly a moment after delivery), never deleted.
    expect(rows).toHaveLength(1);
  });
});
