import type { identityV1 } from '@exchange/proto';
import { AgentReads } from './agent-reads';

/** A GetAgent whose calls wait until answered or failed by the test. */
function heldIdentity() {
  const calls: Array<{ agentId: string; answer(status: string): void; fail(err: Error): void }> = [];
  const getAgent = (agentId: string) =>
    new Promise<identityV1.GetAgentResponse>((resolve, reject) => {
      calls.push({ agentId, answer: (status) => resolve({ agent: { agentId, status } as unknown as identityV1.Agent }), fail: reject });
    });
  return { calls, getAgent };
}

const statusOf = (res: identityV1.GetAgentResponse) => (res.agent as unknown as { status: string }).status;

describe('AgentReads', () => {
  let clock = 0;
  const now = () => clock;
  let stored: string[];
  const store = (agent: identityV1.Agent) => void stored.push(statusOf({ agent }));
  beforeEach(() => {
    clock = 1_000;
    stored = [];
  });

  it('shares one call among concurrent reads of an agent, and calls again once it is answered', async () => {
    const identity = heldIdentity();
    const reads = new AgentReads(identity.getAgent, store, 2_000, now);
    const waiting = [reads.read('a', {}), reads.read('a', {}), reads.read('b', {})];
    expect(identity.calls.map((c) => c.agentId)).toEqual(['a', 'b']);
    identity.calls[0].answer('active');
    identity.calls[1].answer('active');
    expect((await Promise.all(waiting)).map(statusOf)).toEqual(['active', 'active', 'active']);
    void reads.read('a', {});
    expect(identity.calls).toHaveLength(3);
    expect(stored).toEqual(['active', 'active']);
  });

  it('shares a failure with the reads that joined, and keeps nothing of it', async () => {
    const identity = heldIdentity();
    const reads = new AgentReads(identity.getAgent, store, 2_000, now);
    const waiting = [reads.read('a', {}), reads.read('a', {})];
    identity.calls[0].fail(new Error('not found'));
    for (const read of waiting) await expect(read).rejects.toThrow('not found');
    const next = reads.read('a', {});
    expect(identity.calls).toHaveLength(2);
    identity.calls[1].answer('active');
    expect(statusOf(await next)).toBe('active');
  });

  it('does not join a call started longer ago than maxJoinAgeMs', async () => {
    const identity = heldIdentity();
    const reads = new AgentReads(identity.getAgent, store, 2_000, now);
    void reads.read('a', {});
    clock += 2_000;
    void reads.read('a', {});
    expect(identity.calls).toHaveLength(1);
    clock += 1;
    const late = reads.read('a', {});
    expect(identity.calls).toHaveLength(2);
    identity.calls[1].answer('frozen');
    expect(statusOf(await late)).toBe('frozen');
  });

  it('after an identity event, a new read makes its own call and the overtaken answer is not stored', async () => {
    const identity = heldIdentity();
    const reads = new AgentReads(identity.getAgent, store, 2_000, now);
    const before = reads.read('a', {});
    reads.supersede('a');
    reads.supersede('b'); // nothing in flight: nothing happens
    const after = reads.read('a', {});
    expect(identity.calls).toHaveLength(2);
    identity.calls[0].answer('active');
    expect(statusOf(await before)).toBe('active');
    // The overtaken call ending leaves the newer call's entry: a read now joins that one.
    const joiner = reads.read('a', {});
    expect(identity.calls).toHaveLength(2);
    identity.calls[1].answer('frozen');
    expect([statusOf(await after), statusOf(await joiner)]).toEqual(['frozen', 'frozen']);
    expect(stored).toEqual(['frozen']);
  });

  it('with maxJoinAgeMs 0, makes one call per read and stores each answer', async () => {
    const identity = heldIdentity();
    const reads = new AgentReads(identity.getAgent, store, 0, now);
    const waiting = [reads.read('a', {}), reads.read('a', {})];
    expect(identity.calls).toHaveLength(2);
    identity.calls.forEach((c) => c.answer('active'));
    await Promise.all(waiting);
    expect(stored).toEqual(['active', 'active']);
  });
});
