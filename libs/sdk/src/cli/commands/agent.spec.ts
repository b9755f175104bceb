import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeSha256Hex, nodeVerify } from '../../testing/node-ed25519';
import { json, problem, startRecordingServer, type RecordedRequest, type RecordingServer } from '../../testing/recording-server';
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

const BOT = 'acme:agent:bot';
const OTHER = 'acme:agent:other';
const AGENT = { agent_id: BOT, identity_level: 'SANDBOX_UNVERIFIED', status: 'active' };

/** The request was signed as `agentId` with `publicKey` over the documented canonical payload, with no operator token. */
function expectSignedBy(req: RecordedRequest, agentId: string, publicKey: string): void {
  expect(req.headers['authorization']).toBeUndefined();
  expect(req.headers['x-agent-id']).toBe(agentId);
  expect(req.headers['x-agent-nonce']).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  const canonical = JSON.stringify({
    agent_id: agentId,
    body_sha256: nodeSha256Hex(req.body),
    method: req.method,
    nonce: req.headers['x-agent-nonce'],
    path: req.url,
    timestamp: req.headers['x-agent-timestamp'],
  });
  expect(nodeVerify(canonical, req.headers['x-agent-signature'] as string, publicKey)).toBe(true);
}

describe('exchange agent', () => {
  let dir: string;
  let server: RecordingServer;
  let keys: { public_key: string; private_key: string };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exchange-cli-agent-'));
    server = await startRecordingServer();
    expect(await runCli(['keygen', '--out', 'bot.key'], captureIo({}, dir))).toBe(0);
    keys = JSON.parse(readFileSync(join(dir, 'bot.key'), 'utf8'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('agent-signed mode (--key)', () => {
    it('get <own id> --key signs as that agent, with a fresh nonce per request', async () => {
      server.respond(json(200, AGENT), json(200, AGENT));
      const io = captureIo({ EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op-ignored' }, dir);
      expect(await runCli(['agent', 'get', BOT, '--key', 'bot.key'], io)).toBe(0);
      expect(await runCli(['agent', 'get', BOT, '--key', 'bot.key'], io)).toBe(0);
      expect(JSON.parse(io.out.split('\n}\n')[0] + '\n}')).toEqual(AGENT);
      for (const req of server.requests) {
        expect(`${req.method} ${req.url}`).toBe(`GET /v1/agents/${BOT}`);
        expectSignedBy(req, BOT, keys.public_key);
      }
      expect(server.requests[0]!.headers['x-agent-nonce']).not.toBe(server.requests[1]!.headers['x-agent-nonce']);
    });

    it('get <other id> --key --as <me> signs as --as; EXCHANGE_AGENT_ID does the same', async () => {
      server.respond(json(200, { ...AGENT, agent_id: OTHER }), json(200, { ...AGENT, agent_id: OTHER }));
      const io = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['agent', 'get', OTHER, '--key', 'bot.key', '--as', BOT], io)).toBe(0);
      expectSignedBy(server.requests[0]!, BOT, keys.public_key);
      const env = captureIo({ EXCHANGE_URL: server.url, EXCHANGE_AGENT_ID: BOT }, dir);
      expect(await runCli(['agent', 'get', OTHER, '--key', 'bot.key'], env)).toBe(0);
      expectSignedBy(server.requests[1]!, BOT, keys.public_key);
    });

    it('list --key needs --as (no agent argument to sign as) and fails before any request without it', async () => {
      const io = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['agent', 'list', '--key', 'bot.key'], io)).toBe(1);
      expect(io.err).toContain('agent_id_required');
      expect(server.requests).toHaveLength(0);

      server.respond(json(200, { data: [AGENT], next_cursor: null }));
      const ok = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['agent', 'list', '--limit', '5', '--key', 'bot.key', '--as', BOT], ok)).toBe(0);
      expect(server.requests[0]!.url).toBe('/v1/agents?limit=5');
      expectSignedBy(server.requests[0]!, BOT, keys.public_key);
    });

    it('transitions --key signs as the agent and passes the page options', async () => {
      const page = { data: [{ from_level: null, to_level: 'SANDBOX_UNVERIFIED' }], next_cursor: null };
      server.respond(json(200, page));
      const io = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['agent', 'transitions', BOT, '--limit', '2', '--key', 'bot.key'], io)).toBe(0);
      expect(JSON.parse(io.out)).toEqual(page);
      const req = server.requests[0]!;
      expect(`${req.method} ${req.url}`).toBe(`GET /v1/agents/${BOT}/identity_transitions?limit=2`);
      expectSignedBy(req, BOT, keys.public_key);
    });

    it('a refusal prints the problem and exits 1 (e.g. a reused nonce)', async () => {
      server.respond(problem(401, 'agent_nonce_reused', 'X-Agent-Nonce was already used', { request_id: 'req_rp' }));
      const io = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['agent', 'get', BOT, '--key', 'bot.key'], io)).toBe(1);
      expect(io.err).toContain('error: agent_nonce_reused');
      expect(io.err).toContain('req_rp');
    });

    it('an unreadable key file fails locally', async () => {
      const io = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['agent', 'get', BOT, '--key', 'missing.key'], io)).toBe(1);
      expect(io.err).toContain('key_file_unreadable');
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('operator commands', () => {
    const operatorEnv = () => captureIo({ EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op' }, dir);

    it.each([
      [['agent', 'identity-level', BOT, 'MAINNET_BASIC', '--reason', 'kyc passed'], 'POST', `/v1/agents/${BOT}/identity_level`, { identity_level: 'MAINNET_BASIC', reason: 'kyc passed' }],
      [['agent', 'freeze', BOT, '--reason', 'abuse'], 'POST', `/v1/agents/${BOT}/freeze`, { reason: 'abuse' }],
      [['agent', 'unfreeze', BOT, '--reason', 'cleared'], 'POST', `/v1/agents/${BOT}/unfreeze`, { reason: 'cleared' }],
    ])('%j sends the operator request and prints the agent', async (argv, method, path, body) => {
      server.respond(json(200, AGENT));
      const io = operatorEnv();
      expect(await runCli(argv, io)).toBe(0);
      expect(JSON.parse(io.out)).toEqual(AGENT);
      const req = server.requests[0]!;
      expect(`${req.method} ${req.url}`).toBe(`${method} ${path}`);
      expect(req.headers['authorization']).toBe('Bearer op');
      expect(req.headers['x-agent-signature']).toBeUndefined();
      expect(JSON.parse(req.body.toString('utf8'))).toEqual(body);
    });

    it('revoke-key URL-encodes the base64 key and sends the reason', async () => {
      server.respond(json(200, AGENT));
      const io = operatorEnv();
      const pubkey = keys.public_key;
      expect(await runCli(['agent', 'revoke-key', BOT, pubkey, '--reason', 'leaked'], io)).toBe(0);
      const req = server.requests[0]!;
      expect(req.method).toBe('POST');
      expect(req.url).toMatch(new RegExp(`^/v1/agents/${BOT}/keys/[^/]+/revoke$`));
      // base64 may hold '/' and '+': sent percent-encoded, one path segment.
      expect(decodeURIComponent(req.url.split('/')[5]!)).toBe(pubkey);
      expect(req.url.split('/')[5]).toBe(encodeURIComponent(pubkey));
      expect(JSON.parse(req.body.toString('utf8'))).toEqual({ reason: 'leaked' });
    });

    it('refuses locally, before any request: no token, a bad level, a missing --reason', async () => {
      const noToken = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['agent', 'freeze', BOT, '--reason', 'x'], noToken)).toBe(1);
      expect(noToken.err).toContain('operator_token_required');
      const badLevel = operatorEnv();
      expect(await runCli(['agent', 'identity-level', BOT, 'GOLD', '--reason', 'x'], badLevel)).toBe(1);
      expect(badLevel.err).toContain('invalid_identity_level');
      const noReason = operatorEnv();
      expect(await runCli(['agent', 'unfreeze', BOT], noReason)).not.toBe(0);
      expect(noReason.err).toContain('--reason');
      expect(server.requests).toHaveLength(0);
    });

    it('prints the service refusal (e.g. primary_key_revocation) and exits 1', async () => {
      server.respond(problem(409, 'primary_key_revocation', 'the primary key cannot be revoked', { request_id: 'req_pk' }));
      const io = operatorEnv();
      expect(await runCli(['agent', 'revoke-key', BOT, keys.public_key, '--reason', 'rotate'], io)).toBe(1);
      expect(io.err).toContain('error: primary_key_revocation');
    });
  });
});
