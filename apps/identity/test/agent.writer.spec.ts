import path from 'node:path';
import pg from 'pg';
import { DomainError, errors } from '@exchange/platform';
import { runMigrations } from '@exchange/db';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { PgAgentReader } from '../src/agents/agents.repo';
import { PrismaAgentWriter } from '../src/agents/agent-writer.repo';
import { createIdentityPrisma, type IdentityPrisma } from '../src/data/prisma';
import { agentFixture, newAgentId, newKey } from './factories/agent.factory';
import { recordingEvents } from './fakes/in-memory-agents';
import { outboxTypes } from './identity-harness';
import { planFreeze } from '../src/agents/agent-changes';

const caller = { actor: 'operator:test', traceId: null };

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

// The repositories alone, so the unique constraints (not the service's pre-checks) are what answer.
describe('identity repositories on PostgreSQL', () => {
  let db: TestDatabase;
  let prisma: IdentityPrisma;
  let pool: pg.Pool;
  let writer: PrismaAgentWriter;
  let reader: PgAgentReader;
  let commits = 0;

  const freshAgent = () => {
    const key = newKey();
    const base = agentFixture();
    return agentFixture({
      agentId: newAgentId('repo'),
      primaryPubkey: key.pubkey,
      keys: [{ ...base.keys[0], pubkey: key.pubkey }, { ...base.keys[1], pubkey: newKey().pubkey }],
    });
  };

  beforeAll(async () => {
    db = await createTestDatabase('identity_repo');
    await runMigrations({ connectionString: db.url, migrationsDir: path.join(__dirname, '..', 'prisma', 'migrations'), logger: testLogger });
    prisma = createIdentityPrisma(db.url);
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    writer = new PrismaAgentWriter(prisma, pool, () => (commits += 1));
    reader = new PgAgentReader(pool);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await pool?.end();
    await db?.drop();
  });

  it('should store an agent that reads back identically in one query', async () => {
    const agent = freshAgent();
    const before = commits;
    await writer.create(agent, `n-${agent.agentId}`, (a) => recordingEvents.registered(a, caller));
    expect(await reader.get(agent.agentId)).toEqual(agent);
    expect(await reader.isNonceUsed(`n-${agent.agentId}`)).toBe(true);
    expect(commits).toBe(before + 1);
  });

  it('should read several agents in one query, unknown ids absent', async () => {
    const [a, b] = [freshAgent(), freshAgent()];
    for (const agent of [a, b]) await writer.create(agent, `n-${agent.agentId}`, (x) => recordingEvents.registered(x, caller));
    const found = await reader.getMany([b.agentId, 'repo:agent:nobody', a.agentId]);
    expect(found.sort((x, y) => x.agentId.localeCompare(y.agentId))).toEqual([a, b].sort((x, y) => x.agentId.localeCompare(y.agentId)));
    expect(await reader.getMany(['repo:agent:nobody'])).toEqual([]);
  });

  it('should map the agent_id unique violation to agent_id_exists and roll back', async () => {
    const agent = freshAgent();
    await writer.create(agent, `n1-${agent.agentId}`, (a) => recordingEvents.registered(a, caller));
    const err = await rejection(writer.create(agent, `n2-${agent.agentId}`, (a) => recordingEvents.registered(a, caller)));
    expect([err.code, err.message]).toEqual(['agent_id_exists', 'agent_id already exists']);
    expect(await reader.isNonceUsed(`n2-${agent.agentId}`)).toBe(false);
    expect(await outboxTypes(pool, agent.agentId)).toHaveLength(1);
  });

  it('should map the nonce unique violation to proof_nonce_used and not keep the agent', async () => {
    const first = freshAgent();
    await writer.create(first, `n-${first.agentId}`, (a) => recordingEvents.registered(a, caller));
    const second = freshAgent();
    const err = await rejection(writer.create(second, `n-${first.agentId}`, (a) => recordingEvents.registered(a, caller)));
    expect(err.code).toBe('proof_nonce_used');
    expect(await reader.get(second.agentId)).toBeNull();
    expect(await outboxTypes(pool, second.agentId)).toEqual([]);
  });

  it('should map the public key unique violation to pubkey_in_use and keep nothing of the loser', async () => {
    const first = freshAgent();
    await writer.create(first, `n-${first.agentId}`, (a) => recordingEvents.registered(a, caller));
    for (const shared of [first.keys[0]!.pubkey, first.keys[1]!.pubkey]) {
      const second = freshAgent();
      second.keys[1] = { ...second.keys[1]!, pubkey: shared };
      const err = await rejection(writer.create(second, `n-${second.agentId}`, (a) => recordingEvents.registered(a, caller)));
      expect(err.code).toBe('pubkey_in_use');
      expect(await reader.get(second.agentId)).toBeNull();
      expect(await reader.isNonceUsed(`n-${second.agentId}`)).toBe(false);
      expect(await outboxTypes(pool, second.agentId)).toEqual([]);
    }
    expect(await reader.boundPubkeys([first.keys[1]!.pubkey, newKey().pubkey])).toEqual([first.keys[1]!.pubkey]);
  });

  it('should answer the three registration pre-checks in one query', async () => {
    const agent = freshAgent();
    const unused = newKey().pubkey;
    expect(await reader.registrationConflicts(agent.agentId, `n-${agent.agentId}`, [agent.keys[0]!.pubkey, unused])).toEqual({
      agentExists: false,
      nonceUsed: false,
      boundPubkeys: [],
    });
    await writer.create(agent, `n-${agent.agentId}`, (a) => recordingEvents.registered(a, caller));
    const after = await reader.registrationConflicts(agent.agentId, `n-${agent.agentId}`, [unused, agent.keys[1]!.pubkey, agent.keys[0]!.pubkey]);
    expect({ ...after, boundPubkeys: [...after.boundPubkeys].sort() }).toEqual({
      agentExists: true,
      nonceUsed: true,
      boundPubkeys: [agent.keys[0]!.pubkey, agent.keys[1]!.pubkey].sort(),
    });
  });

  it('should let exactly one of two concurrent registrations naming the same key win', async () => {
    const a = freshAgent();
    const b = freshAgent();
    b.keys[1] = { ...b.keys[1]!, pubkey: a.keys[1]!.pubkey };
    const outcomes = await Promise.allSettled([
      writer.create(a, `n-${a.agentId}`, (x) => recordingEvents.registered(x, caller)),
      writer.create(b, `n-${b.agentId}`, (x) => recordingEvents.registered(x, caller)),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const lost = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect((lost.reason as DomainError).code).toBe('pubkey_in_use');
  });

  it('should write nothing when the plan refuses under the lock', async () => {
    const agent = freshAgent();
    await writer.create(agent, `n-${agent.agentId}`, (a) => recordingEvents.registered(a, caller));
    const err = await rejection(
      writer.change(
        agent.agentId,
        () => {
          throw errors.invalidState('agent', 'active', 'active');
        },
        (a, c) => recordingEvents.changed(a, c, caller),
      ),
    );
    expect(err.code).toBe('invalid_state');
    expect(await outboxTypes(pool, agent.agentId)).toHaveLength(1);
  });

  it('should store a change and its event together', async () => {
    const agent = freshAgent();
    await writer.create(agent, `n-${agent.agentId}`, (a) => recordingEvents.registered(a, caller));
    const at = new Date('2026-06-01T00:00:00.000Z');
    const { agent: after } = await writer.change(agent.agentId, (a) => planFreeze(a, 'why', at), (a, c) => recordingEvents.changed(a, c, caller));
    expect(await reader.get(agent.agentId)).toEqual(after);
    expect(after).toMatchObject({ status: 'frozen', frozenReason: 'why', updatedAt: at });
    expect(await outboxTypes(pool, agent.agentId)).toEqual(['exchange.identity.agent.registered', 'exchange.identity.agent.frozen']);
  });

  it('should answer agent_not_found when changing an unknown agent', async () => {
    const err = await rejection(writer.change('nobody:agent:x', (a) => planFreeze(a, 'r', new Date()), (a, c) => recordingEvents.changed(a, c, caller)));
    expect(err.code).toBe('agent_not_found');
  });
});
