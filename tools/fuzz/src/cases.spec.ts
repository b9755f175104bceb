import { CaseStream, mixSeed, shuffled } from './case-stream';
import { needsActingAgent, SIGNER_ONLY, type CaseContext } from './cases';
import { violations } from './conformance';
import { operationsOf } from './openapi';
import { AGENT_ID, FAUCET } from './test-schemas';

const both = [{ operatorToken: [] }, { agentId: [], agentTimestamp: [], agentSignature: [] }];
const doc = {
  paths: {
    '/v1/wallets/{agent_id}/faucet': {
      post: {
        parameters: [{ in: 'path', name: 'agent_id', schema: AGENT_ID }],
        requestBody: { required: true, content: { 'application/json': { schema: FAUCET, example: { amount: '50', category: 'testing' } } } },
        security: both,
      },
    },
    '/v1/contracts': {
      get: {
        parameters: [
          { in: 'query', name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 200 } },
          { in: 'query', name: 'status', schema: { type: 'string', enum: ['open', 'awarded'] } },
        ],
        security: both,
      },
    },
    '/v1/artifacts': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', required: ['content_base64', 'media_type'], properties: { content_base64: { type: 'string' }, media_type: { type: 'string' } } } },
            'multipart/form-data': { schema: { type: 'object' } },
          },
        },
        security: both,
      },
    },
    '/ui/casefile/verify': { post: { requestBody: { required: true, content: { 'application/gzip': { schema: {} } } } } },
    '/health': { get: {} },
  },
};
const ops = operationsOf(doc);
const ctx: CaseContext = { pools: { agent: ['fuzz:agent:a', 'fuzz:agent:b'] }, signerIds: ['fuzz:agent:a', 'fuzz:agent:b'], archive: null, now: Date.parse('2030-01-01T00:00:00Z'), signingKeys: new Map() };
const draw = (seed: number, n: number) => {
  const stream = new CaseStream(ops, ctx, seed);
  return Array.from({ length: n }, () => stream.next().case);
};

describe('CaseStream', () => {
  it('gives the same requests for the same seed and others for another seed', () => {
    const wire = (seed: number) => draw(seed, 200).map((c) => [c.method, c.target, c.body?.toString('base64') ?? null, c.auth.join(), c.label]);
    expect(wire(1)).toEqual(wire(1));
    expect(wire(1)).not.toEqual(wire(2));
  });

  it('visits every operation in each round, operations with a body twice', () => {
    const stream = new CaseStream(ops, ctx, 5);
    const round = Array.from({ length: 8 }, (_, i) => stream.operationAt(i).key).sort();
    expect(round).toEqual([
      'GET /health',
      'GET /v1/contracts',
      'POST /ui/casefile/verify',
      'POST /ui/casefile/verify',
      'POST /v1/artifacts',
      'POST /v1/artifacts',
      'POST /v1/wallets/{agent_id}/faucet',
      'POST /v1/wallets/{agent_id}/faucet',
    ]);
  });

  it('puts hostility in every place and uses every kind of credentials', () => {
    const cases = draw(3, 1500);
    expect(new Set(cases.map((c) => c.focus))).toEqual(new Set(['valid', 'body', 'content', 'path', 'query', 'header', 'method']));
    expect(new Set(cases.map((c) => c.auth[0]))).toEqual(new Set(['operator', 'agent', 'none', 'forged']));
    expect(cases.every((c) => c.auth.at(-1) === 'operator')).toBe(true);
    expect(cases.some((c) => c.contentType?.startsWith('multipart/form-data'))).toBe(true);
    expect(cases.some((c) => c.op.path === '/ui/casefile/verify' && c.contentType === 'application/gzip')).toBe(true);
  });

  it('sends valid faucet bodies that conform, to real agents, and mutated ones labelled by field', () => {
    const faucet = draw(4, 3000).filter((c) => c.op.path === '/v1/wallets/{agent_id}/faucet');
    const valid = faucet.filter((c) => c.focus === 'valid');
    expect(valid.length).toBeGreaterThan(30);
    for (const c of valid) {
      expect(violations(FAUCET, JSON.parse(c.body!.toString()))).toEqual([]);
      expect(c.target).toMatch(/^\/v1\/wallets\/[a-z0-9._-]+:agent:[a-z0-9._-]+\/faucet$/);
    }
    expect(valid.filter((c) => /fuzz:agent:[ab]/.test(c.target)).length).toBeGreaterThan(valid.length / 3);
    const mutated = faucet.filter((c) => c.focus === 'body');
    expect(mutated.some((c) => /^body \/amount ← /.test(c.label))).toBe(true);
    expect(mutated.some((c) => /^body \(root\) ← without required/.test(c.label))).toBe(true);
  });

  it('writes hostile path segments and queries verbatim', () => {
    const cases = draw(6, 3000);
    expect(cases.some((c) => c.focus === 'path' && /\/v1\/wallets\/(\.\.|%2e%2e|%zz|%00)[^/]*\/faucet/.test(c.target))).toBe(true);
    expect(cases.some((c) => c.focus === 'query' && /limit=(abc|-5|%D9%A1%D9%A2|NaN)/.test(c.target))).toBe(true);
  });
});

describe('operation targets', () => {
  it("mostly draw a signer that owns one and name its target's parameters together", () => {
    const faucet = 'POST /v1/wallets/{agent_id}/faucet';
    const targets = new Map([[faucet, [{ agentId: 'fuzz:agent:b', params: { agent_id: 'fuzz:agent:target' } }]]]);
    const stream = new CaseStream(ops, { ...ctx, targets }, 8);
    const valid = Array.from({ length: 3000 }, () => stream.next().case).filter((c) => c.op.key === faucet && c.focus === 'valid');
    const byB = valid.filter((c) => c.signer === 1);
    expect(byB.length).toBeGreaterThan(valid.length * 0.6);
    // Half the draws name the target; the others keep the pools' ids (other states).
    const named = byB.filter((c) => c.target === '/v1/wallets/fuzz:agent:target/faucet').length;
    expect(named).toBeGreaterThan(byB.length * 0.4);
    expect(named).toBeLessThan(byB.length * 0.6);
    expect(valid.filter((c) => c.signer === 0).some((c) => c.target.includes('fuzz:agent:target'))).toBe(false);
  });
});

describe('operations only the agent itself may call', () => {
  it("mostly sign as the agent; the operator does not act there (commerce refuses it even acting)", () => {
    const ops2 = operationsOf({ paths: { '/v1/commerce/feedback/record': { post: { security: both } }, '/v1/post-purchase/cases': { post: { security: both } } } });
    for (const op of ops2) {
      expect(SIGNER_ONLY.has(op.key)).toBe(true);
      expect(needsActingAgent(op)).toBe(false);
      const stream = new CaseStream([op], ctx, 3);
      const cases = Array.from({ length: 400 }, () => stream.next().case);
      expect(cases.filter((c) => c.auth[0] === 'agent').length).toBeGreaterThan(cases.length / 2);
    }
  });
});

describe('mixSeed and shuffled', () => {
  it('are deterministic permutations', () => {
    expect(mixSeed(1, 'a')).toBe(mixSeed(1, 'a'));
    expect(mixSeed(1, 'a')).not.toBe(mixSeed(1, 'b'));
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect(shuffled(items, 9)).toEqual(shuffled(items, 9));
    expect([...shuffled(items, 9)].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled(items, 9)).not.toEqual(items);
  });
});
