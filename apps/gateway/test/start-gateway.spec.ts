import { readGatewayConfig, startGateway } from '../src/index';
import { startFakeIdentity, type FakeIdentity } from './fake-identity';
import { captureLogs } from '@exchange/testing';

// startGateway: listens on HOST:PORT, generates (and logs once) a sandbox token when none is
// configured, writes one log line per request, and stops cleanly.

let identity: FakeIdentity;

beforeAll(async () => {
  identity = await startFakeIdentity();
});

afterAll(async () => {
  await identity.stop();
});

describe('startGateway', () => {
  it('should listen, generate a sandbox token logged once, and log one line per request', async () => {
    const { lines, logger } = captureLogs('gateway');
    const config = readGatewayConfig({ IDENTITY_GRPC_URL: identity.address, WALLET_LEDGER_GRPC_URL: identity.address, MARKET_GRPC_URL: identity.address, REGISTRY_GRPC_URL: identity.address, COMMERCE_GRPC_URL: identity.address, WORKFLOWS_GRPC_URL: identity.address, TELEMETRY_GRPC_URL: identity.address, PORT: '0', HOST: '127.0.0.1' });
    const gateway = await startGateway(config, { logger });
    try {
      expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const tokenLines = lines.filter((l) => /generated sandbox operator token/.test(String(l.msg)));
      expect(tokenLines).toHaveLength(1);
      const token = /token: (\S+)$/.exec(String(tokenLines[0].msg))![1]!;

      const ok = await fetch(`${gateway.url}/v1/agents`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-check-1' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toBe('log-check-1');
      expect((await fetch(`${gateway.url}/v1/agents`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(403);

      const requestLines = lines.filter((l) => l.request_id === 'log-check-1');
      expect(requestLines).toEqual([
        expect.objectContaining({ level: 'info', msg: 'request', method: 'GET', url: '/v1/agents', status: 200, ms: expect.any(Number) }),
      ]);
      // No secrets in the log after start: the authorization header never appears.
      expect(JSON.stringify(lines.filter((l) => l !== tokenLines[0]))).not.toContain(token);
    } finally {
      await gateway.stop();
    }
    await expect(fetch(`${gateway.url}/health`)).rejects.toThrow();
  });

  it('should refuse to start in mainnet without OPERATOR_TOKENS', async () => {
    const { logger } = captureLogs('gateway');
    const config = readGatewayConfig({ IDENTITY_GRPC_URL: identity.address, WALLET_LEDGER_GRPC_URL: identity.address, MARKET_GRPC_URL: identity.address, REGISTRY_GRPC_URL: identity.address, COMMERCE_GRPC_URL: identity.address, WORKFLOWS_GRPC_URL: identity.address, TELEMETRY_GRPC_URL: identity.address, PORT: '0', HOST: '127.0.0.1', EXCHANGE_ENV: 'mainnet' });
    await expect(startGateway(config, { logger })).rejects.toThrow(/OPERATOR_TOKENS/);
  });
});
