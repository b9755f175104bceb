import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { json, problem, startRecordingServer, type RecordingServer } from '../testing/recording-server';
import { nodePublicKeyFromSeed, nodeVerify } from '../testing/node-ed25519';
import type { CliIo } from './io';
import { runCli } from './run-cli';

interface Captured extends CliIo {
  out: string;
  err: string;
}

function captureIo(env: Record<string, string | undefined> = {}, cwd?: string): Captured {
  const io: Captured = {
    out: '',
    err: '',
    env,
    cwd,
    stdout: (t) => {
      io.out += t;
    },
    stderr: (t) => {
      io.err += t;
    },
  };
  return io;
}

const AGENT = {
  agent_id: 'acme:agent:bot',
  primary_pubkey: 'x',
  pubkey_set: [],
  keys: [],
  identity_level: 'SANDBOX_UNVERIFIED',
  status: 'active',
  frozen_reason: null,
  created_at: '2026-11-21T18:00:00.000Z',
  updated_at: '2026-11-21T18:00:00.000Z',
};

describe('exchange CLI (in-process runCli)', () => {
  let dir: string;
  let server: RecordingServer;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exchange-cli-'));
    server = await startRecordingServer();
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function keygen(file: string): Promise<{ public_key: string; private_key: string }> {
    const io = captureIo({}, dir);
    expect(await runCli(['keygen', '--out', file], io)).toBe(0);
    return JSON.parse(readFileSync(join(dir, file), 'utf8'));
  }

  describe('keygen', () => {
    it('--out writes a 0600 JSON key file whose keys round-trip, and prints only the public key', async () => {
      const io = captureIo({}, dir);
      expect(await runCli(['keygen', '--out', 'agent.key'], io)).toBe(0);
      const file = join(dir, 'agent.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      expect(Buffer.from(saved.private_key, 'base64')).toHaveLength(32);
      expect(nodePublicKeyFromSeed(Buffer.from(saved.private_key, 'base64'))).toBe(saved.public_key);

      expect(JSON.parse(io.out)).toEqual({ public_key: saved.public_key, key_file: file });
      expect(io.out).not.toContain(saved.private_key);
      expect(io.err).toBe('');
    });

    it('refuses to overwrite an existing key file unless --force', async () => {
      const first = await keygen('agent.key');
      const io = captureIo({}, dir);
      expect(await runCli(['keygen', '--out', 'agent.key'], io)).toBe(1);
      expect(io.err).toContain('key_file_exists');
      expect(JSON.parse(readFileSync(join(dir, 'agent.key'), 'utf8'))).toEqual(first);

      writeFileSync(join(dir, 'loose.key'), '{}', { mode: 0o644 });
      expect(await runCli(['keygen', '--out', 'loose.key', '--force'], captureIo({}, dir))).toBe(0);
      expect(statSync(join(dir, 'loose.key')).mode & 0o777).toBe(0o600);
    });

    it('without --out prints both keys as JSON', async () => {
      const io = captureIo();
      expect(await runCli(['keygen'], io)).toBe(0);
      const keys = JSON.parse(io.out);
      expect(nodePublicKeyFromSeed(Buffer.from(keys.private_key, 'base64'))).toBe(keys.public_key);
    });
  });

  describe('register', () => {
    it('posts a verified proof with the operator token from the environment and prints the agent', async () => {
      const keys = await keygen('agent.key');
      server.respond(json(201, AGENT));
      const io = captureIo({ EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op-env' }, dir);
      expect(await runCli(['register', '--agent-id', 'acme:agent:bot', '--key', 'agent.key'], io)).toBe(0);
      expect(JSON.parse(io.out)).toEqual(AGENT);

      const [req] = server.requests;
      expect(`${req.method} ${req.url}`).toBe('POST /v1/agents');
      expect(req.headers['authorization']).toBe('Bearer op-env');
      const body = JSON.parse(req.body.toString('utf8'));
      expect(body.primary_pubkey).toBe(keys.public_key);
      expect(body.identity_level).toBe('SANDBOX_UNVERIFIED');
      const canonical = `{"agent_id":"acme:agent:bot","primary_pubkey":"${keys.public_key}","proof_nonce":"${body.proof_nonce}"}`;
      expect(nodeVerify(canonical, body.proof_signature, keys.public_key)).toBe(true);
    });

    it('--base-url/--token flags win over the environment; --identity-level is sent', async () => {
      await keygen('agent.key');
      server.respond(json(201, AGENT));
      const io = captureIo({ EXCHANGE_URL: 'http://127.0.0.1:1', EXCHANGE_OPERATOR_TOKEN: 'env' }, dir);
      const argv = ['--base-url', server.url, '--token', 'flag', 'register', '--agent-id', 'acme:agent:bot', '--key', join(dir, 'agent.key'), '--identity-level', 'MAINNET_BASIC'];
      expect(await runCli(argv, io)).toBe(0);
      expect(server.requests[0].headers['authorization']).toBe('Bearer flag');
      expect(JSON.parse(server.requests[0].body.toString()).identity_level).toBe('MAINNET_BASIC');
    });

    it('prints the problem (code, detail, request id) to stderr and exits 1', async () => {
      await keygen('agent.key');
      server.respond(problem(409, 'agent_id_exists', 'agent_id already exists', { title: 'Conflict', request_id: 'req_dup' }));
      const io = captureIo({ EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op' }, dir);
      expect(await runCli(['register', '--agent-id', 'acme:agent:bot', '--key', 'agent.key'], io)).toBe(1);
      expect(io.out).toBe('');
      expect(io.err).toContain('agent_id_exists');
      expect(io.err).toContain('agent_id already exists');
      expect(io.err).toContain('req_dup');
    });

    it('fails locally, without a request, on a bad level, a missing token or an unreadable key file', async () => {
      await keygen('agent.key');
      const env = { EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op' };
      const badLevel = captureIo(env, dir);
      expect(await runCli(['register', '--agent-id', 'a:agent:b', '--key', 'agent.key', '--identity-level', 'GOD'], badLevel)).toBe(1);
      expect(badLevel.err).toContain('invalid_identity_level');
      const noToken = captureIo({ EXCHANGE_URL: server.url }, dir);
      expect(await runCli(['register', '--agent-id', 'a:agent:b', '--key', 'agent.key'], noToken)).toBe(1);
      expect(noToken.err).toContain('operator_token_required');
      const noFile = captureIo(env, dir);
      expect(await runCli(['register', '--agent-id', 'a:agent:b', '--key', 'missing.key'], noFile)).toBe(1);
      expect(noFile.err).toContain('key_file_unreadable');
      expect(server.requests).toHaveLength(0);
    });

    it('reports a missing required option with a non-zero exit code', async () => {
      const io = captureIo({}, dir);
      expect(await runCli(['register', '--key', 'agent.key'], io)).not.toBe(0);
      expect(io.err).toContain('--agent-id');
    });
  });

  describe('agent get / list', () => {
    it('get prints the agent JSON', async () => {
      server.respond(json(200, AGENT));
      const io = captureIo({ EXCHANGE_URL: server.url, EXCHANGE_OPERATOR_TOKEN: 'op' });
      expect(await runCli(['agent', 'get', 'acme:agent:bot'], io)).toBe(0);
      expect(JSON.parse(io.out)).toEqual(AGENT);
      expect(server.requests[0].url).toBe('/v1/agents/acme:agent:bot');
      expect(server.requests[0].headers['authorization']).toBe('Bearer op');
    });

    it('get of an unknown agent exits 1 with the 404 problem on stderr', async () => {
      server.respond(problem(404, 'agent_not_found', 'agent acme:agent:nobody not found', { request_id: 'req_404' }));
      const io = captureIo({ EXCHANGE_URL: server.url });
      expect(await runCli(['agent', 'get', 'acme:agent:nobody'], io)).toBe(1);
      expect(io.out).toBe('');
      expect(io.err).toMatch(/agent_not_found: agent acme:agent:nobody not found/);
      expect(io.err).toContain('request_id: req_404');
    });

    it('list passes --limit and --cursor and prints the page', async () => {
      const page = { data: [AGENT], next_cursor: 'next' };
      server.respond(json(200, page));
      const io = captureIo({ EXCHANGE_URL: server.url });
      expect(await runCli(['agent', 'list', '--limit', '1', '--cursor', 'abc', '--status', 'active'], io)).toBe(0);
      expect(JSON.parse(io.out)).toEqual(page);
      expect(server.requests[0].url).toBe('/v1/agents?limit=1&cursor=abc&status=active');
    });

    it('list rejects a non-numeric --limit before any request', async () => {
      const io = captureIo({ EXCHANGE_URL: server.url });
      expect(await runCli(['agent', 'list', '--limit', 'ten'], io)).not.toBe(0);
      expect(io.err).toContain('must be a positive integer');
      expect(server.requests).toHaveLength(0);
    });

    it('a refused connection exits 1 with network_error on stderr', async () => {
      const closed = await startRecordingServer();
      await closed.close();
      const io = captureIo({ EXCHANGE_URL: closed.url });
      expect(await runCli(['agent', 'get', 'a:agent:b'], io)).toBe(1);
      expect(io.err).toContain('network_error');
    });
  });
});

describe('`npx exchange` as a child process', () => {
  const repoRoot = resolve(__dirname, '../../../..');
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'exchange-bin-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keygen --out writes a 0600 key file and prints the public key', async () => {
    const file = join(dir, 'agent.key');
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'exchange', 'keygen', '--out', file], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' } });
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(nodePublicKeyFromSeed(Buffer.from(saved.private_key, 'base64'))).toBe(saved.public_key);
    expect(JSON.parse(stdout)).toEqual({ public_key: saved.public_key, key_file: file });
  }, 60_000);

  it('exits 1 with the problem on stderr when the server answers with an error', async () => {
    const server = await startRecordingServer();
    try {
      server.respond(problem(404, 'agent_not_found', 'agent a:agent:gone not found', { request_id: 'req_child' }));
      const child = promisify(execFile)('npx', ['--no-install', 'exchange', '--base-url', server.url, 'agent', 'get', 'a:agent:gone'], { cwd: repoRoot });
      const failure = (await child.then(() => null, (e: unknown) => e)) as { code: number; stdout: string; stderr: string } | null;
      expect(failure).not.toBeNull();
      expect(failure!.code).toBe(1);
      expect(failure!.stdout).toBe('');
      expect(failure!.stderr).toContain('agent_not_found: agent a:agent:gone not found');
      expect(failure!.stderr).toContain('req_child');
      expect(server.requests.map((r) => r.url)).toEqual(['/v1/agents/a:agent:gone']);
    } finally {
      await server.close();
    }
  }, 60_000);
});
