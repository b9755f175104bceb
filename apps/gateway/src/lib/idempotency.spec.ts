import { HttpProblem } from '../plugins/app/problem';
import { isValidIdempotencyKey, resolveIdempotencyKey } from './idempotency';

function problemOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpProblem) return err.problem;
    throw err;
  }
  throw new Error('expected a problem');
}

describe('isValidIdempotencyKey', () => {
  it('should accept 1-255 printable ASCII characters, spaces included', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey(' ~!')).toBe(true);
    expect(isValidIdempotencyKey('k'.repeat(255))).toBe(true);
  });

  it('should refuse empty, too long, control and non-ASCII keys', () => {
    for (const bad of ['', 'k'.repeat(256), 'a\tb', 'a\nb', 'clé', '\u007f']) expect(isValidIdempotencyKey(bad)).toBe(false);
  });
});

describe('resolveIdempotencyKey', () => {
  it('should take the key from the body or the header, and accept both when equal', () => {
    expect(resolveIdempotencyKey({ bodyKey: 'b', headerKey: undefined, required: true })).toBe('b');
    expect(resolveIdempotencyKey({ bodyKey: undefined, headerKey: 'h', required: true })).toBe('h');
    expect(resolveIdempotencyKey({ bodyKey: 'same', headerKey: 'same', required: true })).toBe('same');
  });

  it('should refuse two different keys with 400 idempotency_key_mismatch', () => {
    expect(problemOf(() => resolveIdempotencyKey({ bodyKey: 'a', headerKey: 'b', required: false }))).toMatchObject({
      status: 400,
      code: 'idempotency_key_mismatch',
    });
  });

  it('should require a key on balance mutations and return "" when optional and absent', () => {
    expect(problemOf(() => resolveIdempotencyKey({ bodyKey: undefined, headerKey: undefined, required: true }))).toMatchObject({
      status: 400,
      code: 'idempotency_key_required',
      errors: [{ pointer: '/idempotency_key', message: expect.any(String) }],
    });
    expect(resolveIdempotencyKey({ bodyKey: undefined, headerKey: undefined, required: false })).toBe('');
  });

  it('should refuse a malformed key (even an optional one) and repeated headers with 400 invalid_idempotency_key', () => {
    expect(problemOf(() => resolveIdempotencyKey({ bodyKey: '', headerKey: undefined, required: false }))).toMatchObject({
      status: 400,
      code: 'invalid_idempotency_key',
    });
    expect(problemOf(() => resolveIdempotencyKey({ bodyKey: undefined, headerKey: ['a', 'b'], required: true }))).toMatchObject({
      code: 'invalid_idempotency_key',
    });
  });
});
