import { findNul, jsonDepthExceeds, MAX_JSON_DEPTH } from './input-hygiene';

const nested = (depth: number) => Buffer.from('['.repeat(depth) + ']'.repeat(depth));

describe('jsonDepthExceeds', () => {
  it('should accept nesting up to the limit and refuse one level more', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(Buffer.from('{"a":'.repeat(5000) + '1' + '}'.repeat(5000)))).toBe(true);
  });

  it('should not count brackets inside strings, escaped quotes included', () => {
    const inString = Buffer.from(JSON.stringify({ s: '['.repeat(1000) + '\\"{{{' }));
    expect(jsonDepthExceeds(inString)).toBe(false);
  });

  it('should count siblings as one level', () => {
    expect(jsonDepthExceeds(Buffer.from(JSON.stringify(Array.from({ length: 1000 }, () => [[1]]))))).toBe(false);
  });
});

describe('findNul', () => {
  it('should find NUL in a nested string value and name it by JSON pointer', () => {
    expect(findNul({ a: [{ b: 'x' }, { 'c/d': 'y\u0000' }] })).toEqual({ pointer: '/a/1/c~1d' });
  });

  it('should find NUL in an object key', () => {
    expect(findNul({ payload: { 'k\u0000': 1 } })?.pointer).toBe('/payload/k\u0000');
  });

  it('should skip binary bodies without walking their bytes', () => {
    expect(findNul(Buffer.alloc(1024 * 1024))).toBeNull();
    expect(findNul(new Uint8Array([0, 0]))).toBeNull();
  });

  it('should pass clean values, numbers and null', () => {
    expect(findNul({ a: 'é ١٢ 🚀', n: 1, z: null, t: true })).toBeNull();
    expect(findNul(undefined)).toBeNull();
  });
});
