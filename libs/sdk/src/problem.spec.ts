import { parseRetryAfter, problemToError } from './problem';

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, ignores garbage', () => {
    const now = new Date('2026-11-21T18:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 18:00:45 GMT', now)).toBe(45);
    expect(parseRetryAfter('Sat, 21 Nov 2026 17:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('problemToError', () => {
  it('ignores a malformed errors[] entry shape and a non-object details', () => {
    const body = JSON.stringify({ code: 'validation_failed', detail: 'bad', errors: [{ pointer: '/a', message: 'm' }, 'junk'], details: 'x' });
    const err = problemToError(400, 'Bad Request', new Headers({ 'x-request-id': 'req_h' }), body);
    expect(err.errors).toEqual([{ pointer: '/a', message: 'm' }]);
    expect(err.details).toBeUndefined();
    expect(err.title).toBe('Bad Request');
    expect(err.requestId).toBe('req_h');
    expect(err.message).toBe('400 validation_failed: bad');
  });

  it('exposes top-level extension members (the gateway’s form) as details', () => {
    const body = JSON.stringify({
      type: 'https://agent-exchange.dev/errors/faucet_cap_exceeded',
      title: 'Forbidden',
      status: 403,
      detail: 'cap',
      code: 'faucet_cap_exceeded',
      request_id: 'req_1',
      resets_at: '2026-11-22T00:00:00.000Z',
      remaining_today: '10',
      category: 'testing',
    });
    expect(problemToError(403, 'Forbidden', new Headers(), body).details).toEqual({
      resets_at: '2026-11-22T00:00:00.000Z',
      remaining_today: '10',
      category: 'testing',
    });
  });

  it('names an empty error body by its status', () => {
    const err = problemToError(500, '', new Headers(), '');
    expect(err.code).toBe('http_500');
    expect(err.title).toBe('HTTP 500');
    expect(err.requestId).toBeNull();
  });
});
