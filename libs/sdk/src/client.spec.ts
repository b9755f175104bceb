import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent } from './agents';
import { ExchangeClient } from './client';
import { ExchangeApiError, ExchangeNetworkError } from './errors';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';
import { nodeKeyPair, nodeSha256Hex, nodeVerify } from './testing/node-ed25519';

function agentFixture(agentId: string, overrides: Partial<Agent> = {}): Agent {
  return {
    agent_id: agentId,
    primary_pubkey: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    pubkey_set: [],
    keys: [{ pubkey: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', primary: true, status: 'active', added_at: '2026-11-21T18:00:00.000Z', revoked_at: null, revoked_reason: null }],
    identity_level: 'SANDBOX_UNVERIFIED',
    status: 'active',
    frozen_reason: null,
    created_at: '2026-11-21T18:00:00.000Z',
    updated_at: '2026-11-21T18:00:00.000Z',
    ...overrides,
  };
}

describe('ExchangeClient against a local HTTP server', () => {
  let server: RecordingServer;
  beforeEach(async () => {
    server = await startRecordingServer();
  });
  afterEach(() => server.close());

  describe('authentication headers', () => {
    it('sends the operator token and, when acting for an agent, X-Agent-Id — and no signature', async () => {
      server.respond(json(200, agentFixture('acme:agent:bot')), json(200, agentFixture('acme:agent:bot')));
      const client = new ExchangeClient({ baseUrl: `${server.url}/`, operatorToken: 'op-secret', userAgent: 'sdk-test/1' });
      await client.agents.getAgent('acme:agent:bot');
      await client.withActingAgent('acme:agent:buyer').agents.getAgent('acme:agent:bot');

      const [plain, acting] = server.requests;
      expect(plain.method).toBe('GET');
      expect(plain.url).toBe('/v1/agents/acme:agent:bot');
      expect(plain.headers['authorization']).toBe('Bearer op-secret');
      expect(plain.headers['user-agent']).toBe('sdk-test/1');
      expect(plain.headers['x-agent-id']).toBeUndefined();
      expect(plain.headers['x-agent-signature']).toBeUndefined();
      expect(acting.headers['authorization']).toBe('Bearer op-secret');
      expect(acting.headers['x-agent-id']).toBe('acme:agent:buyer');
      expect(acting.headers['x-agent-timestamp']).toBeUndefined();
    });

    it('signs each request as the agent over the path with query and the exact body bytes sent', async () => {
      const keys = nodeKeyPair();
      server.respond(json(200, { data: [], next_cursor: null }), json(200, agentFixture('acme:agent:bot', { status: 'frozen' })));
      const client = new ExchangeClient({
        baseUrl: server.url,
        agent: { agentId: 'acme:agent:bot', privateKey: keys.privateKey },
        now: () => new Date('2026-11-21T18:00:00.900Z'),
      });
      await client.agents.listAgents({ limit: 2, status: 'active' });
      await client.agents.freezeAgent('acme:agent:bot', 'suspicious');

      for (const req of server.requests) {
        expect(req.headers['authorization']).toBeUndefined();
        expect(req.headers['x-agent-id']).toBe('acme:agent:bot');
        expect(req.headers['x-agent-timestamp']).toBe(String(Date.parse('2026-11-21T18:00:00Z') / 1000));
        expect(req.headers['x-agent-nonce']).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
        const canonical = JSON.stringify({
          agent_id: 'acme:agent:bot',
          body_sha256: nodeSha256Hex(req.body),
          method: req.method,
          nonce: req.headers['x-agent-nonce'],
          path: req.url,
          timestamp: req.headers['x-agent-timestamp'],
        });
        expect(nodeVerify(canonical, req.headers['x-agent-signature'] as string, keys.publicKey)).toBe(true);
      }
      const [list, freeze] = server.requests;
      // A fresh nonce per request: the exchange refuses one seen before (agent_nonce_reused).
      expect(list.headers['x-agent-nonce']).not.toBe(freeze.headers['x-agent-nonce']);
      expect(list.url).toBe('/v1/agents?limit=2&status=active');
      expect(list.body).toHaveLength(0);
      expect(list.headers['content-type']).toBeUndefined();
      expect(freeze.url).toBe('/v1/agents/acme:agent:bot/freeze');
      expect(freeze.headers['content-type']).toBe('application/json');
      expect(JSON.parse(freeze.body.toString('utf8'))).toEqual({ reason: 'suspicious' });
    });

    it('sends no credentials when none are configured', async () => {
      server.respond(json(200, { status: 'ok', environment: 'sandbox', version: '0.1.0', exchange_public_key: 'k', services: {}, time: 't' }));
      await new ExchangeClient({ baseUrl: server.url }).health();
      const [req] = server.requests;
      expect(req.url).toBe('/health');
      expect(req.headers['authorization']).toBeUndefined();
      expect(req.headers['x-agent-id']).toBeUndefined();
    });
  });

  describe('agents area', () => {
    const client = () => new ExchangeClient({ baseUrl: server.url, operatorToken: 'op' });

    it('registerAgent posts a self-built proof and returns the created agent', async () => {
      const keys = nodeKeyPair();
      const created = agentFixture('acme:agent:new');
      server.respond(json(201, created));
      const agent = await client().agents.registerAgent({ agentId: 'acme:agent:new', keys, proofNonce: 'n-42' });
      expect(agent).toEqual(created);

      const [req] = server.requests;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v1/agents');
      const body = JSON.parse(req.body.toString('utf8'));
      const primary = Buffer.from(keys.publicKey).toString('base64');
      expect(body).toEqual({
        agent_id: 'acme:agent:new',
        primary_pubkey: primary,
        pubkey_set: [],
        identity_level: 'SANDBOX_UNVERIFIED',
        proof_nonce: 'n-42',
        proof_signature: expect.any(String),
      });
      expect(JSON.stringify(body)).not.toContain(Buffer.from(keys.privateKey).toString('base64'));
      const canonical = `{"agent_id":"acme:agent:new","primary_pubkey":"${primary}","proof_nonce":"n-42"}`;
      expect(nodeVerify(canonical, body.proof_signature, keys.publicKey)).toBe(true);
    });

    it('changeIdentityLevel, unfreezeAgent and listIdentityTransitions hit the documented routes', async () => {
      server.respond(
        json(200, agentFixture('a:agent:b', { identity_level: 'MAINNET_BASIC' })),
        json(200, agentFixture('a:agent:b')),
        json(200, { data: [{ transition_id: 'itr_1', agent_id: 'a:agent:b', from_level: 'SANDBOX_UNVERIFIED', to_level: 'MAINNET_BASIC', reason: 'kyc', actor: 'operator:default', created_at: 't' }], next_cursor: null }),
      );
      const agent = await client().agents.changeIdentityLevel('a:agent:b', 'MAINNET_BASIC', 'kyc');
      expect(agent.identity_level).toBe('MAINNET_BASIC');
      await client().agents.unfreezeAgent('a:agent:b', 'cleared');
      const page = await client().agents.listIdentityTransitions('a:agent:b', { limit: 10, cursor: 'abc' });
      expect(page.data[0].to_level).toBe('MAINNET_BASIC');

      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.toString('utf8')}`)).toEqual([
        'POST /v1/agents/a:agent:b/identity_level {"identity_level":"MAINNET_BASIC","reason":"kyc"}',
        'POST /v1/agents/a:agent:b/unfreeze {"reason":"cleared"}',
        'GET /v1/agents/a:agent:b/identity_transitions?limit=10&cursor=abc ',
      ]);
    });

    it('revokeKey URL-encodes the standard base64 public key', async () => {
      const pubkey = new Uint8Array(32).fill(0xfb); // base64 "+/v7…=" exercises +, / and =
      const b64 = Buffer.from(pubkey).toString('base64');
      expect(b64).toMatch(/[+/=]/);
      server.respond(json(200, agentFixture('a:agent:b')), json(200, agentFixture('a:agent:b')));
      await client().agents.revokeKey('a:agent:b', pubkey, 'leaked');
      await client().agents.revokeKey('a:agent:b', b64, 'leaked');

      const expectedPath = `/v1/agents/a:agent:b/keys/${b64.replace(/\+/g, '%2B').replace(/\//g, '%2F').replace(/=/g, '%3D')}/revoke`;
      expect(server.requests.map((r) => r.url)).toEqual([expectedPath, expectedPath]);
      expect(decodeURIComponent(expectedPath.split('/')[5])).toBe(b64);
      expect(JSON.parse(server.requests[0].body.toString())).toEqual({ reason: 'leaked' });
    });

    it('iterateAgents follows next_cursor to the end, keeping the filters', async () => {
      server.respond(
        json(200, { data: [agentFixture('a:agent:1'), agentFixture('a:agent:2')], next_cursor: 'c1' }),
        json(200, { data: [agentFixture('a:agent:3'), agentFixture('a:agent:4')], next_cursor: 'c2==' }),
        json(200, { data: [agentFixture('a:agent:5')], next_cursor: null }),
      );
      const ids: string[] = [];
      for await (const agent of client().agents.iterateAgents({ limit: 2, identityLevel: 'SANDBOX_UNVERIFIED' })) ids.push(agent.agent_id);

      expect(ids).toEqual(['a:agent:1', 'a:agent:2', 'a:agent:3', 'a:agent:4', 'a:agent:5']);
      expect(server.requests.map((r) => r.url)).toEqual([
        '/v1/agents?limit=2&identity_level=SANDBOX_UNVERIFIED',
        '/v1/agents?limit=2&cursor=c1&identity_level=SANDBOX_UNVERIFIED',
        '/v1/agents?limit=2&cursor=c2%3D%3D&identity_level=SANDBOX_UNVERIFIED',
      ]);
    });
  });

  describe('errors', () => {
    const client = () => new ExchangeClient({ baseUrl: server.url, operatorToken: 'op' });

    it('turns a problem+json answer into ExchangeApiError with every field', async () => {
      server.respond(
        problem(400, 'validation_failed', 'request body is invalid', {
          title: 'Bad Request',
          request_id: 'req_abc',
          errors: [{ pointer: '/agent_id', message: 'must match pattern' }],
        }),
      );
      const err = await client().agents.getAgent('x:agent:y').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExchangeApiError);
      const apiErr = err as ExchangeApiError;
      expect(apiErr.status).toBe(400);
      expect(apiErr.code).toBe('validation_failed');
      expect(apiErr.title).toBe('Bad Request');
      expect(apiErr.detail).toBe('request body is invalid');
      expect(apiErr.requestId).toBe('req_abc');
      expect(apiErr.errors).toEqual([{ pointer: '/agent_id', message: 'must match pattern' }]);
      expect(apiErr.retryAfter).toBeNull();
      expect(apiErr.problem?.type).toBe('https://agent-exchange.dev/errors/validation_failed');
    });

    it('keeps details of an invalid_state problem and falls back to the x-request-id header', async () => {
      server.respond(problem(409, 'invalid_state', 'agent is frozen', { details: { current: 'frozen', wanted: 'frozen' } }));
      const err = (await client().agents.freezeAgent('a:agent:b', 'again').catch((e: unknown) => e)) as ExchangeApiError;
      expect(err.status).toBe(409);
      expect(err.details).toEqual({ current: 'frozen', wanted: 'frozen' });
      expect(err.requestId).toBe('req_test_1');
    });

    it('reads Retry-After seconds on 429', async () => {
      server.respond(problem(429, 'rate_limited', 'too many requests', { request_id: 'req_rl' }, { 'retry-after': '17' }));
      const err = (await client().agents.listAgents().catch((e: unknown) => e)) as ExchangeApiError;
      expect(err).toBeInstanceOf(ExchangeApiError);
      expect(err.status).toBe(429);
      expect(err.code).toBe('rate_limited');
      expect(err.retryAfter).toBe(17);
    });

    it('wraps a non-JSON error body (e.g. a proxy page) without losing the status', async () => {
      server.respond({ status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad Gateway</h1>' });
      const err = (await client().agents.getAgent('a:agent:b').catch((e: unknown) => e)) as ExchangeApiError;
      expect(err).toBeInstanceOf(ExchangeApiError);
      expect(err.status).toBe(502);
      expect(err.code).toBe('http_502');
      expect(err.detail).toBe('<h1>Bad Gateway</h1>');
      expect(err.problem).toBeNull();
    });

    it('health() returns the degraded body on 503 instead of throwing', async () => {
      const degraded = { status: 'degraded', environment: 'sandbox', version: '0.1.0', exchange_public_key: 'k', services: { identity: { status: 'NOT_SERVING', address: '127.0.0.1:1' } }, time: 't' };
      server.respond(json(503, degraded));
      await expect(client().health()).resolves.toEqual(degraded);
    });

    it('wraps a refused connection as ExchangeNetworkError network_error', async () => {
      const closed = await startRecordingServer();
      const url = closed.url;
      await closed.close();
      const err = (await new ExchangeClient({ baseUrl: url }).agents.getAgent('a:agent:b').catch((e: unknown) => e)) as ExchangeNetworkError;
      expect(err).toBeInstanceOf(ExchangeNetworkError);
      expect(err.code).toBe('network_error');
      expect(err.method).toBe('GET');
      expect(err.url).toBe(`${url}/v1/agents/a:agent:b`);
      expect(err.message).toContain('ECONNREFUSED');
    });

    it('wraps a request that outlives timeoutMs as ExchangeNetworkError timeout', async () => {
      // A server that accepts the request and never answers.
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = silent.address() as AddressInfo;
        const slow = new ExchangeClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 50 });
        const err = (await slow.agents.getAgent('a:agent:b').catch((e: unknown) => e)) as ExchangeNetworkError;
        expect(err).toBeInstanceOf(ExchangeNetworkError);
        expect(err.code).toBe('timeout');
      } finally {
        silent.closeAllConnections();
        await new Promise((resolve) => silent.close(resolve));
      }
    });
  });
});
