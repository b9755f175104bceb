import { classKey, formatFailures, groupFailures, type Failure } from './report';
import { Stats } from './stats';

const failure = (over: Partial<Failure>): Failure => ({
  index: 1,
  operation: 'POST /v1/coordination/threads',
  method: 'POST',
  target: '/v1/coordination/threads',
  auth: 'operator',
  label: 'body /title ← hostile string "x\\u0000y"',
  status: 500,
  code: 'internal',
  violations: [{ kind: 'server_error', detail: 'status 500' }],
  excerpt: '{"type":"…/internal","status":500}',
  ...over,
});

describe('groupFailures', () => {
  const badUrl = (index: number, operation: string) =>
    failure({
      index,
      operation,
      method: 'GET',
      target: '/x/%zz',
      status: 400,
      code: 'FST_ERR_BAD_URL',
      violations: [{ kind: 'not_problem_json', detail: 'content-type "application/json"' }],
      excerpt: '{"error":"Bad Request","code":"FST_ERR_BAD_URL","statusCode":400}',
    });

  it('groups by violation, status and cause across routes, keeping examples on distinct routes', () => {
    const failures = [
      failure({ index: 1 }),
      failure({ index: 2 }),
      failure({ index: 3, operation: 'POST /v1/listings', target: '/v1/listings' }),
      badUrl(4, 'GET /v1/agents/{agent_id}'),
      badUrl(5, 'GET /v1/offers/{offer_id}'),
    ];
    const classes = groupFailures(failures);
    expect(classes.map((c) => [c.key, c.count, c.examples.map((e) => e.index), c.routes])).toEqual([
      ['server_error → 500 internal', 3, [1, 3], ['POST /v1/coordination/threads ×2', 'POST /v1/listings']],
      ['not_problem_json → 400 FST_ERR_BAD_URL', 2, [4, 5], ['GET /v1/agents/{agent_id}', 'GET /v1/offers/{offer_id}']],
    ]);
  });

  it('names the cause of a non-problem answer by its message, and a request without an answer by the error', () => {
    expect(classKey(failure({ status: 400, code: null, violations: [{ kind: 'not_problem_json', detail: '' }], excerpt: '{"error":"Bad Request","message":"Client Error","statusCode":400}' }))).toBe(
      'not_problem_json → 400 "Client Error"',
    );
    expect(classKey(failure({ status: null, code: null, violations: [{ kind: 'no_response', detail: 'ECONNREFUSED' }], excerpt: '' }))).toBe('no_response → no response ECONNREFUSED');
  });
});

describe('formatFailures', () => {
  it('prints one line per class and two per example, escaping NUL', () => {
    const text = formatFailures(groupFailures([failure({})]));
    expect(text.split('\n')).toEqual([
      '✗ server_error → 500 internal  (×1 on 1 route)',
      '    #1 POST /v1/coordination/threads [operator] body /title ← hostile string "x\\u0000y"',
      '      server_error: status 500 — "{\\"type\\":\\"…/internal\\",\\"status\\":500}"',
    ]);
  });
});

describe('Stats', () => {
  it('counts per status, credentials and place, and formats the figures', () => {
    let t = 0;
    const stats = new Stats(() => t);
    stats.record('operator', 'body', 'POST /a', 400);
    stats.record('agent', 'valid', 'GET /b', 200);
    stats.record('none', 'path', 'GET /b', 429);
    stats.record('forged', 'query', 'GET /b', null);
    stats.record('operator', 'body', 'POST /a', 500);
    stats.latency(10, 'a');
    stats.latency(30, 'POST /a body x');
    stats.latency(20, 'b');
    t = 2000;
    stats.finish();
    expect(stats.count((s) => s >= 500)).toBe(1);
    const text = stats.format();
    expect(text).toContain('requests:    5 in 2.0 s (2.5/s), 2 operations');
    expect(text).toContain('statuses:    200 1, 400 1, 429 1, 500 1');
    expect(text).toContain('auth:        operator 2, agent 1, none 1, forged 1');
    expect(text).toContain('5xx:         1');
    expect(text).toContain('429:         1');
    expect(text).toContain('no response: 1');
    expect(text).toContain('latency:     p50 20 ms, p99 30 ms, max 30 ms (POST /a body x)');
    expect(text).toContain('2xx reached: 1 of 2 operations; never 2xx: POST /a');
  });
});
