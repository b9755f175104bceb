import { startFakeIdentity } from './fake-identity';
import { startFakeWalletLedger } from './fake-wallet-ledger';
import { startHarness } from './harness';

// GET /health: grpc.health.v1 on every backing service; 200 only when all are SERVING.

const EXPECTED_PUBLIC_KEY = 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ='; // of seed 0x01..0x20

describe('GET /health', () => {
  it('should answer 200 ok with version, environment, the exchange public key and each service', async () => {
    const h = await startHarness();
    try {
      const res = await h.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ok',
        environment: 'sandbox',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        exchange_public_key: EXPECTED_PUBLIC_KEY,
        services: {
          identity: { status: 'SERVING', address: h.identity.address },
          'wallet-ledger': { status: 'SERVING', address: h.wallet.address },
          market: { status: 'SERVING', address: h.market.address },
          registry: { status: 'SERVING', address: h.registry.address },
          commerce: { status: 'SERVING', address: h.commerce.address },
          workflows: { status: 'SERVING', address: h.workflows.address },
          telemetry: { status: 'SERVING', address: h.telemetry.address },
        },
        time: expect.stringMatching(/Z$/),
      });
    } finally {
      await h.close();
    }
  });

  it('should answer 503 degraded when a service reports NOT_SERVING', async () => {
    const identity = await startFakeIdentity({ serving: false });
    const h = await startHarness({ identity });
    try {
      const res = await h.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'degraded', services: { identity: { status: 'NOT_SERVING' } } });
      identity.handle.setServing();
      expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await h.close();
      await identity.stop();
    }
  });

  it('should answer 503 degraded while market is NOT_SERVING, the others being fine', async () => {
    const h = await startHarness();
    try {
      h.market.handle.setNotServing();
      const res = await h.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'degraded',
        services: { identity: { status: 'SERVING' }, 'wallet-ledger': { status: 'SERVING' }, market: { status: 'NOT_SERVING', address: h.market.address } },
      });
      h.market.handle.setServing();
      expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('should answer 503 degraded while registry is NOT_SERVING, the others being fine', async () => {
    const h = await startHarness();
    try {
      h.registry.handle.setNotServing();
      const res = await h.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'degraded',
        services: { market: { status: 'SERVING' }, registry: { status: 'NOT_SERVING', address: h.registry.address } },
      });
      h.registry.handle.setServing();
      expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('should answer 503 degraded while wallet-ledger is NOT_SERVING, identity being fine', async () => {
    const wallet = await startFakeWalletLedger({ serving: false });
    const h = await startHarness({ wallet });
    try {
      const res = await h.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'degraded',
        services: { identity: { status: 'SERVING' }, 'wallet-ledger': { status: 'NOT_SERVING', address: wallet.address } },
      });
      wallet.handle.setServing();
      expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await h.close();
      await wallet.stop();
    }
  });

  it('should answer 503 with UNKNOWN when the service is down, within the check deadline', async () => {
    const identity = await startFakeIdentity();
    const h = await startHarness({ identity, healthCheckDeadlineMs: 300 });
    await identity.stop();
    try {
      const res = await h.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'degraded', services: { identity: { status: 'UNKNOWN', address: identity.address } } });
    } finally {
      await h.close();
    }
  });

  it('should publish a null key when no signing key is configured, and EXCHANGE_PUBLIC_KEY when given alone', async () => {
    const identity = await startFakeIdentity();
    const none = await startHarness({ identity, env: { EXCHANGE_SIGNING_KEY: '' } });
    const given = await startHarness({ identity, env: { EXCHANGE_SIGNING_KEY: '', EXCHANGE_PUBLIC_KEY: EXPECTED_PUBLIC_KEY } });
    try {
      expect((await none.app.inject({ method: 'GET', url: '/health' })).json().exchange_public_key).toBeNull();
      expect((await given.app.inject({ method: 'GET', url: '/health' })).json().exchange_public_key).toBe(EXPECTED_PUBLIC_KEY);
    } finally {
      await none.close();
      await given.close();
      await identity.stop();
    }
  });
});
