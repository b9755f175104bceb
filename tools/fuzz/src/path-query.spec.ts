import fc from 'fast-check';
import { operationsOf } from './openapi';
import type { OpTargets } from './op-targets';
import { validSegments, type PathQueryContext } from './path-query';
import { AGENT_ID } from './test-schemas';

// A consume names an escrow hold with its owner's wallet (the market's refusal the escrow oracle
// checks) about as often with the operation's targets as without them, and still names a target
// often enough to reach its 2xx.

const HOLD = { type: 'string', pattern: '^hold_[a-z0-9]+$' };
const params = [
  { in: 'path', name: 'agent_id', required: true, schema: AGENT_ID },
  { in: 'path', name: 'hold_id', required: true, schema: HOLD },
];
const [consume] = operationsOf({ paths: { '/v1/wallets/{agent_id}/holds/{hold_id}/consume': { post: { parameters: params } } } });

const BUYER = 'fz:agent:buyer';
const signers = [BUYER, 'fz:agent:seller', 'fz:agent:verifier'];
const escrowHolds = new Set(['hold_e1', 'hold_e2']);
const base: PathQueryContext = {
  pools: { agent: signers, hold: ['hold_plain', 'hold_e1', 'hold_e2'] },
  signerIds: signers,
  owners: new Map([['hold_plain', BUYER], ['hold_e1', BUYER], ['hold_e2', BUYER]]),
  escrowHolds,
};
const targets: OpTargets = new Map([
  [consume.key, [1, 2].map((n) => ({ agentId: null, params: { agent_id: BUYER, hold_id: `hold_tgt000${n}`, to_agent_id: 'fz:agent:seller' } }))],
]);

const RUNS = 2000;
const draw = (ctx: PathQueryContext) => fc.sample(validSegments(consume, ctx, 'fz:agent:seller'), { numRuns: RUNS, seed: 42 });
const escrowWithOwner = (all: Array<Record<string, string>>) => all.filter((s) => escrowHolds.has(s.hold_id) && s.agent_id === BUYER).length;

describe('valid segments of a consume', () => {
  const without = draw(base);
  const withTargets = draw({ ...base, targets });

  it("keeps the escrow holds named with their owner's wallet when the operation has targets", () => {
    expect(escrowWithOwner(without)).toBeGreaterThan(RUNS / 10);
    expect(escrowWithOwner(withTargets)).toBeGreaterThanOrEqual(0.85 * escrowWithOwner(without));
  });

  it('names a target (its hold with its wallet) in about half the draws at most', () => {
    const named = withTargets.filter((s) => ['hold_tgt0001', 'hold_tgt0002'].includes(s.hold_id));
    expect(named.length).toBeGreaterThan(RUNS / 5);
    expect(named.length).toBeLessThan(0.55 * RUNS);
    for (const s of named) expect(s.agent_id).toBe(BUYER);
  });
});
