import { checkResponse, problemCode, problemShapeErrors } from './checker';

const PROBLEM = 'application/problem+json; charset=utf-8';
const problem = (status: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'https://agent-exchange.dev/errors/x', title: 'T', status, detail: 'd', code: 'x', request_id: 'r', ...extra });
const obs = (status: number, body: string, contentType: string | null = PROBLEM, method = 'POST') => ({
  method,
  status,
  headers: (contentType === null ? {} : { 'content-type': contentType }) as Record<string, string>,
  body,
});

describe('checkResponse', () => {
  it('accepts success answers and problem+json errors', () => {
    expect(checkResponse(obs(200, '{"ok":true}', 'application/json'))).toEqual([]);
    expect(checkResponse(obs(400, problem(400)))).toEqual([]);
    expect(checkResponse(obs(429, problem(429), 'application/problem+json'))).toEqual([]);
  });

  it('flags every 5xx, problem+json or not', () => {
    expect(checkResponse(obs(500, problem(500)))).toEqual([{ kind: 'server_error', detail: 'status 500' }]);
    expect(checkResponse(obs(503, problem(503)))).toEqual([{ kind: 'server_error', detail: 'status 503' }]);
  });

  it('lets only the documented merchant failures through as 5xx', () => {
    expect(checkResponse(obs(502, problem(502, { code: 'merchant_protocol_error' })))).toEqual([]);
    expect(checkResponse(obs(502, problem(502, { code: 'merchant_unavailable' })))).toEqual([]);
    expect(checkResponse(obs(504, problem(504, { code: 'merchant_timeout' })))).toEqual([]);
    // Another code, or a merchant code under another status, is still a server error.
    expect(checkResponse(obs(502, problem(502, { code: 'bad_gateway' })))).toEqual([{ kind: 'server_error', detail: 'status 502' }]);
    expect(checkResponse(obs(500, problem(500, { code: 'merchant_unavailable' })))).toEqual([{ kind: 'server_error', detail: 'status 500' }]);
    expect(checkResponse(obs(504, problem(504, { code: 'merchant_protocol_error' })))).toEqual([{ kind: 'server_error', detail: 'status 504' }]);
    // …and it must still be a problem+json.
    expect(checkResponse(obs(502, problem(502, { code: 'merchant_timeout' }), 'text/plain'))).toEqual([
      { kind: 'server_error', detail: 'status 502' },
      { kind: 'not_problem_json', detail: 'content-type "text/plain"' },
    ]);
  });

  it('flags an error that is not problem+json', () => {
    expect(checkResponse(obs(404, '{"message":"Route not found"}', 'application/json; charset=utf-8'))).toEqual([
      { kind: 'not_problem_json', detail: 'content-type "application/json; charset=utf-8"' },
    ]);
    expect(checkResponse(obs(400, 'Bad Request', null))).toEqual([{ kind: 'not_problem_json', detail: 'content-type null' }]);
  });

  it('flags a problem+json without the problem shape', () => {
    expect(checkResponse(obs(400, '{"title":"x"}'))).toEqual([{ kind: 'bad_problem', detail: 'missing type, code' }]);
    expect(checkResponse(obs(400, problem(500)))).toEqual([{ kind: 'bad_problem', detail: 'status member 500 ≠ 400' }]);
    expect(checkResponse(obs(400, 'oops'))).toEqual([{ kind: 'bad_problem', detail: 'body is not JSON' }]);
  });

  it('checks only the content type of a HEAD error (it has no body)', () => {
    expect(checkResponse(obs(404, '', PROBLEM, 'HEAD'))).toEqual([]);
    expect(checkResponse(obs(404, '', 'text/plain', 'HEAD'))).toEqual([{ kind: 'not_problem_json', detail: 'content-type "text/plain"' }]);
  });

  it.each([
    ['stack trace', 'TypeError: x\n    at handler (/work/main/apps/gateway/src/x.ts:10:5)'],
    ['SQL error', 'invalid byte sequence for encoding "UTF8": 0x00'],
    ['Prisma error', 'Invalid `prisma.contract.create()` invocation'],
    ['stack overflow message', 'Maximum call stack size exceeded'],
  ])('flags a leaked %s even in a 4xx', (what, detail) => {
    const violations = checkResponse(obs(400, problem(400, { detail })));
    expect(violations).toContainEqual({ kind: 'leak', detail: what === 'stack trace' ? 'stack trace' : what });
  });
});

describe('problemShapeErrors and problemCode', () => {
  it('accepts a full problem and names what is missing otherwise', () => {
    expect(problemShapeErrors(problem(409), 409)).toBeNull();
    expect(problemShapeErrors('[]', 409)).toBe('body is not a JSON object');
    expect(problemShapeErrors(JSON.stringify({ type: 't', title: 't', status: 409 }), 409)).toBe('missing code');
  });

  it('reads the code', () => {
    expect(problemCode(problem(400))).toBe('x');
    expect(problemCode('nope')).toBeNull();
  });
});
