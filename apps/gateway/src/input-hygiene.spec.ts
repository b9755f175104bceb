import { findUnacceptable, jsonDepthExceeds, MAX_JSON_DEPTH } from './input-hygiene';

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

describe('findUnacceptable: NUL', () => {
  it('should find NUL in a nested string value and name it by JSON pointer', () => {
    expect(findUnacceptable({ a: [{ b: 'x' }, { 'c/d': 'y\u0000' }] })).toEqual({ pointer: '/a/1/c~1d', keyword: 'nul', message: 'must not contain the NUL character (U+0000)' });
  });

  it('should name the first find in key order, escaping ~ and / in the pointer', () => {
    expect(findUnacceptable({ ok: 'a', 'a~b': [1, 'x', { 'c/d': Infinity }], later: 'n\u0000' })).toEqual({
      pointer: '/a~0b/2/c~1d',
      keyword: 'finite',
      message: 'must be a number a 64-bit float can hold (within ±1.7976931348623157e308)',
    });
  });

  it('should find NUL in an object key', () => {
    expect(findUnacceptable({ payload: { 'k\u0000': 1 } })?.pointer).toBe('/payload/k\u0000');
  });

  it('should skip binary bodies without walking their bytes', () => {
    expect(findUnacceptable(Buffer.alloc(1024 * 1024))).toBeNull();
    expect(findUnacceptable(new Uint8Array([0, 0]))).toBeNull();
  });

  it('should pass clean values, numbers and null', () => {
    expect(findUnacceptable({ a: 'é ١٢ 🚀', n: 1, z: null, t: true })).toBeNull();
    expect(findUnacceptable(undefined)).toBeNull();
  });
});

describe('findUnacceptable: numbers', () => {
  it('should find a number JSON.parse made infinite, in a free-form payload too, and name it', () => {
    const parsed = JSON.parse('{"payload":[1,2,3,4,-1e400],"n":1e308}') as unknown;
    expect(findUnacceptable(parsed)).toEqual({ pointer: '/payload/4', keyword: 'finite', message: expect.stringContaining('64-bit float') });
    expect(findUnacceptable(JSON.parse(`{"a":{"b":${'9'.repeat(400)}}}`))?.pointer).toBe('/a/b');
    expect(findUnacceptable({ x: NaN })?.keyword).toBe('finite');
  });

  it('should pass the largest and smallest finite numbers, and underflow to zero', () => {
    expect(findUnacceptable(JSON.parse('[1.7976931348623157e308,-1.7976931348623157e308,5e-324,1e-400]'))).toBeNull();
  });
});
