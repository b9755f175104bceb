import { json, problem, startRecordingServer, type RecordingServer } from '../../testing/recording-server';
import type { CliIo } from '../io';
import { runCli } from '../run-cli';

interface Captured extends CliIo {
  out: string;
  err: string;
}

function captureIo(env: Record<string, string | undefined>): Captured {
  const io: Captured = { out: '', err: '', env, stdout: (t) => void (io.out += t), stderr: (t) => void (io.err += t) };
  return io;
}

describe('exchange integrity', () => {
  let server: RecordingServer;
  let env: Record<string, string>;
  beforeEach(async () => {
    server = await startRecordingServer();
    env = { EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op' };
  });
  afterEach(() => server.close());

  const snapshot = { state: 'normal', since: '2026-11-21T18:00:00.000Z', reason: null, set_by: null, kill_switches: [], wallet_controls_synced: true };

  it('state prints the snapshot read with the operator token', async () => {
    server.respond(json(200, snapshot));
    const io = captureIo(env);
    expect(await runCli(['integrity', 'state'], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual(snapshot);
    expect(`${server.requests[0]!.method} ${server.requests[0]!.url}`).toBe('GET /v1/market-integrity/state');
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer op');
  });

  it('kill-switch sends name, enabled and reason, and prints the key', async () => {
    server.respond(json(200, snapshot));
    const io = captureIo(env);
    expect(await runCli(['integrity', 'kill-switch', 'faucet', 'on', '--reason', 'abuse', '--idempotency-key', 'ks-1'], io)).toBe(0);
    expect(JSON.parse(server.requests[0]!.body.toString('utf8'))).toEqual({ name: 'faucet', enabled: true, reason: 'abuse', idempotency_key: 'ks-1' });
    expect(server.requests[0]!.url).toBe('/v1/market-integrity/kill-switches');
    expect(io.err).toBe('idempotency_key: ks-1\n');
  });

  it('set-state sends the state and prints the problem on 409', async () => {
    server.respond(problem(409, 'invalid_state', 'market is normal, cannot become restricted', { current: 'normal', wanted: 'restricted' }));
    const io = captureIo(env);
    expect(await runCli(['integrity', 'set-state', 'restricted', '--reason', 'incident'], io)).not.toBe(0);
    expect(JSON.parse(server.requests[0]!.body.toString('utf8'))).toMatchObject({ state: 'restricted', reason: 'incident' });
    expect(io.err).toContain('invalid_state');
  });

  it('refuses an unknown state or switch without a request', async () => {
    const io = captureIo(env);
    expect(await runCli(['integrity', 'set-state', 'panic', '--reason', 'x'], io)).not.toBe(0);
    expect(await runCli(['integrity', 'kill-switch', 'everything', 'on', '--reason', 'x'], io)).not.toBe(0);
    expect(await runCli(['integrity', 'kill-switch', 'faucet', 'maybe', '--reason', 'x'], io)).not.toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('audit passes the filters', async () => {
    server.respond(json(200, { data: [], next_cursor: null }));
    const io = captureIo(env);
    expect(await runCli(['integrity', 'audit', '--action', 'kill_switch_set', '--limit', '5'], io)).toBe(0);
    expect(server.requests[0]!.url).toBe('/v1/market-integrity/audit?limit=5&action=kill_switch_set');
  });
});
