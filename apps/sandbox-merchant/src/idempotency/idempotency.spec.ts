import { canonicalJson } from './canonical-json';
import { fingerprint, IdempotencyStore } from './idempotency';

describe('IdempotencyStore', () => {
  it('replays the same request, flags another one as a conflict, forgets after the TTL', () => {
    let now = 0;
    const store = new IdempotencyStore(() => now, 1000);
    const a = fingerprint('POST /x', '{"a":1}');
    const b = fingerprint('POST /x', '{"a":2}');
    expect(store.lookup('k', a)).toEqual({ kind: 'new' });
    store.remember('k', a, { statusCode: 201, body: { id: 1 } });
    expect(store.lookup('k', a)).toEqual({ kind: 'replay', answer: { statusCode: 201, body: { id: 1 } } });
    expect(store.lookup('k', b)).toEqual({ kind: 'conflict' });
    expect(store.lookup('k', fingerprint('PUT /x', '{"a":1}'))).toEqual({ kind: 'conflict' });
    now = 1001;
    expect(store.lookup('k', b)).toEqual({ kind: 'new' });
    expect(store.size).toBe(0);
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: 'x' })).toBe('{"a":"x","b":[2,{"c":null,"d":1}]}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});
