import { errors } from '@exchange/platform';
import { initialSnapshot } from './fake-market-kit';
import { expectProblem, operator, startHarness, type Harness } from './harness';
import { captureLogs } from '@exchange/testing';

// What the gateway logs for a 5xx: a deliberate refusal (read-only mode, from the gateway's guard
// or from a service) at info with its code and no stack, its request line at info too; an
// unexpected failure the whole error, at error, and its request line at warn.

const { lines, logger } = captureLogs('gateway');
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { GATEWAY_INTEGRITY_CACHE_MS: '0' }, logger });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  lines.length = 0;
});
afterEach(() => {
  h.market.part2.snapshot = initialSnapshot();
});

const logsOf = (requestId: string) => lines.filter((line) => line.request_id === requestId && line.msg !== 'request');
const requestLine = (requestId: string) => lines.find((line) => line.request_id === requestId && line.msg === 'request');

it('logs a deliberate 503 (read_only) at info with its code, without a stack', async () => {
  const snapshot = initialSnapshot();
  h.market.part2.snapshot = { ...snapshot, killSwitches: snapshot.killSwitches.map((k) => (k.name === 'read_only' ? { ...k, enabled: true } : k)) };
  const res = await h.app.inject({ method: 'POST', url: '/v1/wallets/ns:agent:x/faucet', headers: { ...operator(), 'x-request-id': 'deliberate-1' }, payload: { amount: '1', category: 'x' } });
  expectProblem(res, 503, 'read_only');
  expect(logsOf('deliberate-1')).toEqual([expect.objectContaining({ level: 'info', msg: 'request refused', code: 'read_only' })]);
  expect(JSON.stringify(logsOf('deliberate-1'))).not.toContain('stack');
  expect(requestLine('deliberate-1')).toMatchObject({ level: 'info', status: 503 });
});

it('logs a service\'s deliberate refusal (kill switch) at info too', async () => {
  h.identity.failNext('listIdentityTransitions', errors.unavailable('kill_switch:awards', 'the awards kill switch is on'));
  const res = await h.app.inject({ method: 'GET', url: '/v1/agents/ns:agent:x/identity_transitions', headers: { ...operator(), 'x-request-id': 'deliberate-2' } });
  expectProblem(res, 503, 'kill_switch:awards');
  expect(logsOf('deliberate-2')).toEqual([expect.objectContaining({ level: 'info', msg: 'request refused', code: 'kill_switch:awards' })]);
  expect(requestLine('deliberate-2')).toMatchObject({ level: 'info', status: 503 });
});

it('logs an unexpected failure at error with the whole error', async () => {
  h.identity.failNext('listIdentityTransitions', new Error('boom inside'));
  const res = await h.app.inject({ method: 'GET', url: '/v1/agents/ns:agent:x/identity_transitions', headers: { ...operator(), 'x-request-id': 'unexpected-1' } });
  expectProblem(res, 500, 'internal');
  const logged = logsOf('unexpected-1');
  // The service keeps its own message to itself (INTERNAL); the gateway logs what it got, in full.
  expect(logged).toEqual([expect.objectContaining({ level: 'error', msg: 'request failed', err: expect.objectContaining({ code: 13, stack: expect.any(String) }) })]);
  expect(requestLine('unexpected-1')).toMatchObject({ level: 'warn' });
});
