import { jsonDepth } from './json-depth';

describe('jsonDepth', () => {
  it('counts nesting of arrays and objects, ignoring brackets in strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[{{{\\"]]]"}')).toBe(1);
    expect(jsonDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(100_000);
  });
});
