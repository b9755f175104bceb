import fc from 'fast-check';
import { violations } from './conformance';
import { toJsonText } from './json-text';
import { applyMutation, mutationArbitrary, nodesOf, pointerOf, preview, replaceAt, REMOVE } from './mutate';
import { schemaArbitrary } from './schema-arbitrary';
import { CONTRACT, FAUCET } from './test-schemas';

const faucet = { amount: '12.5', category: 'testing', idempotency_key: 'k' };
const nodeAt = (value: unknown, pointer: string) => nodesOf(value, FAUCET).find((n) => pointerOf(n.path) === pointer)!;

describe('nodesOf and replaceAt', () => {
  it('lists the root and every field with its schema', () => {
    const nodes = nodesOf({ budget: { amount: '1', currency: 'CREDIT' }, tags: ['a'] }, CONTRACT);
    expect(nodes.map((n) => pointerOf(n.path))).toEqual(['', '/budget', '/budget/amount', '/budget/currency', '/tags', '/tags/0']);
    expect(nodes[2].schema).toBe(CONTRACT.properties!.budget.properties!.amount);
    expect(nodes[5].schema).toBe(CONTRACT.properties!.tags.items);
  });

  it('replaces or removes without touching the original', () => {
    const original = { a: { b: [1, 2] } };
    expect(replaceAt(original, ['a', 'b', 1], 'x')).toEqual({ a: { b: [1, 'x'] } });
    expect(replaceAt(original, ['a', 'b'], REMOVE)).toEqual({ a: {} });
    expect(original).toEqual({ a: { b: [1, 2] } });
  });
});

describe('applyMutation', () => {
  it('puts a hostile string in a string field, labelled with its pointer', () => {
    const m = applyMutation(faucet, nodeAt(faucet, '/amount'), 'hostile-string', 2);
    expect(m.value).toEqual({ ...faucet, amount: '١٢' });
    expect(m.label).toBe('/amount ← hostile string "١٢"');
  });

  it('writes overflowing numbers verbatim', () => {
    const m = applyMutation(faucet, nodeAt(faucet, '/amount'), 'overflow-number', 0);
    expect(toJsonText(m.value)).toBe('{"amount":1.2e29,"category":"testing","idempotency_key":"k"}');
  });

  it('drops a required field and the result no longer conforms', () => {
    const m = applyMutation(faucet, nodeAt(faucet, ''), 'drop-required', 1);
    expect(m.value).toEqual({ amount: '12.5', idempotency_key: 'k' });
    expect(violations(FAUCET, m.value)).toEqual(['/category: required']);
  });

  it('adds an own __proto__ key that reaches the wire', () => {
    const m = applyMutation(faucet, nodeAt(faucet, ''), 'unknown-field', 0);
    expect(toJsonText(m.value)).toContain('"__proto__":{"admin":true}');
    expect(violations(FAUCET, JSON.parse(toJsonText(m.value)))).toEqual(['/__proto__: unknown field']);
  });

  it('nests 5,000 deep', () => {
    const m = applyMutation(faucet, nodeAt(faucet, '/category'), 'deep-nesting', 3);
    expect(m.label).toBe('/category ← arrays nested 5000 deep');
    expect(toJsonText(m.value)).toContain('['.repeat(5000));
  });

  it('repeats a key in the JSON text', () => {
    const m = applyMutation(faucet, nodeAt(faucet, ''), 'duplicate-key', 0);
    const text = toJsonText(m.value);
    expect(text.match(/"amount":/g)).toHaveLength(2);
    expect(text).toContain('"category":"testing"');
  });
});

describe('mutationArbitrary', () => {
  it('always changes the value and says where', () => {
    fc.assert(
      fc.property(mutationArbitrary(CONTRACT, schemaArbitrary(CONTRACT, { pools: {} })), (m) => {
        expect(m.label).toMatch(/^(\(root\)|\/.*) ← /);
        expect(typeof toJsonText(m.value)).toBe('string');
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('breaks the schema for type, bound and shape mutations', () => {
    const arb = mutationArbitrary(FAUCET, schemaArbitrary(FAUCET, { pools: {} }));
    const samples = fc.sample(arb, { seed: 11, numRuns: 400 });
    const structural = samples.filter((m) => /wrong type \d|without required|unknown key|nested|null$/.test(m.label));
    expect(structural.length).toBeGreaterThan(50);
    for (const m of structural) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(toJsonText(m.value));
      } catch {
        continue; // not even JSON: broken by construction
      }
      expect({ label: m.label, errors: violations(FAUCET, parsed).length > 0 }).toEqual({ label: m.label, errors: true });
    }
  });
});

describe('preview', () => {
  it('escapes invisible and direction characters and truncates', () => {
    expect(preview('a\u202Eb')).toBe('"a\\u202eb"');
    expect(preview('\u0000')).toBe('"\\u0000"');
    expect(preview('x'.repeat(100), 10)).toBe('"xxxxxxxxx…(102)');
  });
});
