import { cloneJson, deeplyNested, duplicateKeyObject, raw, setOwn, toJsonText } from './json-text';

describe('toJsonText', () => {
  it('writes plain values as JSON.stringify does', () => {
    const value = { a: 1, b: 'x\u0000y', c: [true, null, 2.5], d: { e: 'é' } };
    expect(toJsonText(value)).toBe(JSON.stringify(value));
  });

  it('copies raw tokens verbatim, even when they are not valid JSON', () => {
    expect(toJsonText({ amount: raw('1.2e29'), n: raw('NaN'), big: raw('123456789012345678901234567890') })).toBe(
      '{"amount":1.2e29,"n":NaN,"big":123456789012345678901234567890}',
    );
  });

  it('sends an own __proto__ key instead of dropping it', () => {
    const obj: Record<string, unknown> = {};
    setOwn(obj, '__proto__', { admin: true });
    expect(toJsonText(obj)).toBe('{"__proto__":{"admin":true}}');
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
  });

  it('writes non-finite numbers as null', () => {
    expect(toJsonText([Number.NaN, Infinity])).toBe('[null,null]');
  });
});

describe('deeplyNested', () => {
  it('builds 5,000 levels without recursing and the text parses to that depth', () => {
    const text = deeplyNested(5000, 'array').text;
    expect(text.length).toBe(10001);
    let depth = 0;
    let node: unknown = JSON.parse(text);
    while (Array.isArray(node)) {
      depth++;
      node = node[0];
    }
    expect(depth).toBe(5000);
  });

  it('nests objects under "a"', () => {
    expect(deeplyNested(2, 'object').text).toBe('{"a":{"a":1}}');
  });
});

describe('duplicateKeyObject and cloneJson', () => {
  it('repeats the key', () => {
    expect(duplicateKeyObject('amount', '1', '2').text).toBe('{"amount":"1","amount":"2"}');
  });

  it('clones deeply, keeping raw tokens and own __proto__ keys', () => {
    const token = raw('1e400');
    const src: Record<string, unknown> = { a: { b: [1, token] } };
    setOwn(src, '__proto__', 'x');
    const copy = cloneJson(src);
    expect(copy).not.toBe(src);
    expect((copy.a as { b: unknown[] }).b[1]).toBe(token);
    expect(toJsonText(copy)).toBe(toJsonText(src));
  });
});
