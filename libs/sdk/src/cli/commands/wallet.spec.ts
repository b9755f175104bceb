import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeSha256Hex, nodeVerify } from '../../testing/node-ed25519';
import { json, problem, startRecordingServer, type RecordingServer } from '../../testing/recording-server';
import type { CliIo } from '../io';
import { runCli } from '../run-cli';

interface Captured extends CliIo {
  out: string;
  err: string;
}

function captureIo(env: Record<string, string | undefined>, cwd?: string): Captured {
  const io: Captured = { out: '', err: '', env, cwd, stdout: (t) => void (io.out += t), stderr: (t) => void (io.err += t) };
  return io;
}

const AGENT = 'acme:agent:bot';

describe('exchange wallet', () => {
  let dir: string;
  let server: RecordingServer;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exchange-cli-wallet-'));
    server = await startRecordingServer();
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('balance prints the snapshot read with the operator token', async () => {
    const snapshot = { agent_id: AGENT, balances: [{ currency: 'CREDIT', available: '5', held: '0', total: '5' }], as_of: '2026-11-21T18:00:00.000Z' };
    server.respond(json(200, snapshot));
    const io = captureIo({ EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op' });
    expect(await runCli(['wallet', 'balance', AGENT], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual(snapshot);
    expect(`${server.requests[0]!.method} ${server.requests[0]!.url}`).toBe(`GET /v1/wallets/${AGENT}`);
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer op');
  });

  it('faucet signs as the agent with --key, sends the given idempotency key and reports a replay', async () => {
    const keygen = captureIo({}, dir);
    expect(await runCli(['keygen', '--out', 'bot.key'], keygen)).toBe(0);
    const keys = JSON.parse(readFileSync(join(dir, 'bot.key'), 'utf8'));
    server.respond(json(201, { faucet_grant_id: 'fgr_1' }, { 'idempotent-replayed': 'true' }));
    const io = captureIo({ EXCHANGE_URL: server.url }, dir);
    expect(await runCli(['wallet', 'faucet', AGENT, '--amount', '50', '--category', 'testing', '--idempotency-key', 'again-1', '--key', 'bot.key'], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual({ faucet_grant_id: 'fgr_1' });
    expect(io.err).toBe('idempotency_key: again-1 (replayed)\n');
    const req = server.requests[0]!;
    expect(req.headers['authorization']).toBeUndefined();
    expect(JSON.parse(req.body.toString('utf8'))).toEqual({ amount: '50', category: 'testing', idempotency_key: 'again-1' });
    const canonical = JSON.stringify({ agent_id: AGENT, body_sha256: nodeSha256Hex(req.body), method: 'POST', nonce: req.headers['x-agent-nonce'], path: req.url, timestamp: req.headers['x-agent-timestamp'] });
    expect(nodeVerify(canonical, req.headers['x-agent-signature'] as string, keys.public_key)).toBe(true);
  });

  it('transfer defaults the currency to CREDIT and prints the problem with the key to retry with', async () => {
    server.respond(problem(409, 'insufficient_funds', 'insufficient CREDIT funds', { request_id: 'req_if' }));
    const io = captureIo({ EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op' });
    expect(await runCli(['wallet', 'transfer', AGENT, '--to', 'acme:agent:other', '--amount', '7'], io)).toBe(1);
    const body = JSON.parse(server.requests[0]!.body.toString('utf8'));
    expect(body).toMatchObject({ to_agent_id: 'acme:agent:other', amount: '7', currency: 'CREDIT' });
    expect(io.err).toContain('insufficient_funds');
    expect(io.err).toContain(`idempotency_key: ${body.idempotency_key}`);
  });
});
