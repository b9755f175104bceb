import { canonicalBytes, canonicalize } from './canonical-json';
import { CanonicalizationError } from './errors';

describe('canonicalize (legacy v1)', () => {
  it('should sort keys by UTF-16 code units, not code points or locale', () => {
    // By code point U+1F602 (😂) would come after U+FB33; by UTF-16 units its lead surrogate
    // 0xD83D sorts first. Uppercase sorts before lowercase, the empty key first.
    const value = { '\uFB33': 6, '\u{1F602}': 5, é: 4, a: 3, B: 2, '': 1 };
    expect(canonicalize(value)).toBe('{"":1,"B":2,"a":3,"é":4,"\u{1F602}":5,"\uFB33":6}');
  });

  it('should sort numeric-looking keys as strings', () => {
    expect(canonicalize({ 10: 'a', 2: 'b', 1: 'c' })).toBe('{"1":"c","10":"a","2":"b"}');
  });

  it('should sort nested objects inside arrays and keep array order', () => {
    const value = { b: [{ d: 1, c: [2, { f: null, e: true }] }, []], a: {} };
    expect(canonicalize(value)).toBe('{"a":{},"b":[{"c":[2,{"e":true,"f":null}],"d":1},[]]}');
  });

  it('should escape strings exactly as JSON.stringify does', () => {
    const value = '\u0000\u0001\u001f\b\t\n\f\r"\\/\u007f\u0080\u2028\u2029€😂';
    // Control characters below U+0020 are escaped (short forms where JSON has them, else
    // lowercase \u00xx); DEL, U+2028/U+2029 and all other characters are emitted raw.
    expect(canonicalize(value)).toBe('"\\u0000\\u0001\\u001f\\b\\t\\n\\f\\r\\"\\\\/\u007f\u0080\u2028\u2029€😂"');
    expect(canonicalize(value)).toBe(JSON.stringify(value));
  });

  it('should escape lone surrogates as JSON.stringify does (well-formed output)', () => {
    expect(canonicalize('a\uD800b')).toBe('"a\\ud800b"');
    expect(canonicalize({ '\uDC00': 1 })).toBe('{"\\udc00":1}');
  });

  it('should print numbers as ES Number::toString does', () => {
    expect(canonicalize([-0, 0, 1, -1, 2 ** 53, 1e21, 1e-7, 0.1 + 0.2, 4.5, 123456789012345680000])).toBe(
      '[0,0,1,-1,9007199254740992,1e+21,1e-7,0.30000000000000004,4.5,123456789012345680000]',
    );
  });

  it('should emit no insignificant whitespace and the JSON literals', () => {
    expect(canonicalize({ a: [null, true, false, ''], b: 'x y' })).toBe('{"a":[null,true,false,""],"b":"x y"}');
  });

  it('should serialize objects with toJSON (Date) through it, as JSON.stringify does', () => {
    expect(canonicalize({ at: new Date('2026-11-21T18:00:00.000Z') })).toBe('{"at":"2026-11-21T18:00:00.000Z"}');
  });

  it('should accept objects without a prototype and shared (non-cyclic) references', () => {
    const bare = Object.assign(Object.create(null) as object, { b: 1, a: 2 });
    const shared = { x: 1 };
    expect(canonicalize(bare)).toBe('{"a":2,"b":1}');
    expect(canonicalize([shared, { s: shared }])).toBe('[{"x":1},{"s":{"x":1}}]');
  });

  it.each([
    ['undefined', undefined],
    ['undefined member', { a: undefined }],
    ['undefined element', [1, undefined]],
    ['array hole', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['NaN', Number.NaN],
    ['Infinity', Infinity],
    ['-Infinity', { n: -Infinity }],
    ['bigint', { n: 1n }],
    ['function', { f: () => 1 }],
    ['symbol', Symbol('s')],
    ['Map', new Map([['a', 1]])],
    ['Set', new Set([1])],
    ['class instance', new (class Point { x = 1; })()],
  ])('should reject %s', (_label, value) => {
    expect(() => canonicalize(value)).toThrow(CanonicalizationError);
  });

  it('should reject cycles through objects and arrays, naming the path', () => {
    const object: Record<string, unknown> = { a: 1 };
    object.self = object;
    const array: unknown[] = [1];
    array.push({ back: array });
    expect(() => canonicalize(object)).toThrow('cyclic structure at $.self');
    expect(() => canonicalize(array)).toThrow('cyclic structure at $[1].back');
  });

  it('should name the path of a rejected value', () => {
    expect(() => canonicalize({ a: [{ b: 1n }] })).toThrow('at $.a[0].b');
  });
});

describe('canonicalBytes', () => {
  it('should be the UTF-8 encoding of the canonical string', () => {
    const bytes = canonicalBytes({ k: 'é😂' });
    expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from('{"k":"é😂"}', 'utf8').toString('hex'));
    expect(bytes.length).toBe(8 + 2 + 4);
  });
});
