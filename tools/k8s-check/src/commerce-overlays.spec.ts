// Commerce in every overlay, and the sandbox merchant: in the sandbox overlay only.
import { describeWithExecutable } from '@exchange/testing';
import { secretValue } from './checks/addresses';
import { isFlowAllowed } from './checks/network-policy';
import { resolveEnv } from './env';
import { find, workloads } from './manifest';
import { checkOverlay, SANDBOX_ONLY_APPS } from './overlay-checks';
import { render, pod, rules } from './overlay-render';

const grpc = { port: 50051, portName: 'grpc' };
const merchantHttp = { port: 8290, portName: 'http' };

describeWithExecutable('commerce in every overlay', 'kubectl', 'apt-get install -y kubectl', () => {
  describe.each(rules.map((r) => [r.name] as const))('%s', (name) => {
    it('should configure commerce per the env conventions, with the gateway pointing at it', () => {
      const objects = render(name);
      const commerce = resolveEnv(objects, 'commerce', 'server');
      expect(commerce).toMatchObject({
        GRPC_PORT: { value: '50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        IDENTITY_GRPC_URL: { value: 'identity:50051' },
        WALLET_LEDGER_GRPC_URL: { value: 'wallet-ledger:50051' },
        MARKET_GRPC_URL: { value: 'market:50051' },
        WORKFLOWS_GRPC_URL: { value: 'workflows:50051' },
        EXCHANGE_PUBLIC_URL: { value: expect.stringMatching(/^https?:\/\//) },
        MERCHANT_DIRECTORY: { value: expect.any(String) },
        DATABASE_URL: { secret: expect.stringMatching(/^commerce-secrets/), key: 'DATABASE_URL' },
        EXCHANGE_SIGNING_KEY: { secret: expect.stringMatching(/^commerce-secrets/), key: 'EXCHANGE_SIGNING_KEY' },
        COMMERCE_PLATFORM_KEY: { secret: expect.stringMatching(/^commerce-secrets/), key: 'COMMERCE_PLATFORM_KEY' },
      });
      expect(commerce.EXCHANGE_ENV).toEqual(resolveEnv(objects, 'gateway', 'server').EXCHANGE_ENV);
      expect(resolveEnv(objects, 'gateway', 'server').COMMERCE_GRPC_URL).toEqual({ value: 'commerce:50051' });
    });

    it('should let the gateway and wallet-ledger call commerce, commerce call identity, wallet-ledger, market, workflows and HTTPS merchants, and nothing else', () => {
      const objects = render(name);
      const [gateway, identity, walletLedger, market, commerce, workflows, registry, telemetry] = ['gateway', 'identity', 'wallet-ledger', 'market', 'commerce', 'workflows', 'registry', 'telemetry'].map((n) => pod(objects, n));
      expect(isFlowAllowed(objects, gateway, commerce, grpc)).toBe(true);
      expect(isFlowAllowed(objects, commerce, identity, grpc)).toBe(true);
      expect(isFlowAllowed(objects, commerce, walletLedger, grpc)).toBe(true);
      // A checkout's origin: the contract's parties (market), the run's owner (workflows).
      expect(isFlowAllowed(objects, commerce, market, grpc)).toBe(true);
      expect(isFlowAllowed(objects, commerce, workflows, grpc)).toBe(true);
      expect(isFlowAllowed(objects, commerce, pod(objects, 'nats'), { port: 4222, portName: 'client' })).toBe(true);
      expect(isFlowAllowed(objects, commerce, 'external', { port: 443 })).toBe(true);
      // Plain http to the internet, other services and the outside world calling in: denied.
      expect(isFlowAllowed(objects, commerce, 'external', { port: 80 })).toBe(false);
      expect(isFlowAllowed(objects, 'external', commerce, grpc)).toBe(false);
      // wallet-ledger reads a proxy call's mandate budget; the other services never call commerce.
      expect(isFlowAllowed(objects, walletLedger, commerce, grpc)).toBe(true);
      expect(isFlowAllowed(objects, market, commerce, grpc)).toBe(false);
      expect(isFlowAllowed(objects, identity, commerce, grpc)).toBe(false);
      expect(isFlowAllowed(objects, workflows, commerce, grpc)).toBe(false);
      expect(isFlowAllowed(objects, commerce, registry, grpc)).toBe(false);
      expect(isFlowAllowed(objects, commerce, telemetry, grpc)).toBe(false);
      expect(isFlowAllowed(objects, commerce, gateway, { port: 8080, portName: 'http' })).toBe(false);
    });
  });
});

describeWithExecutable('sandbox merchant', 'kubectl', 'apt-get install -y kubectl', () => {
  const sandbox = () => render('sandbox');

  it('should run in the sandbox overlay on HTTP 8290 with /health probes behind its Service', () => {
    const w = workloads(sandbox()).find((x) => x.kind === 'Deployment' && x.name === 'sandbox-merchant')!;
    expect(w.replicas).toBe(1);
    expect(w.pod.serviceAccountName).toBe('sandbox-merchant');
    const server = w.pod.containers![0];
    expect(server.name).toBe('server');
    expect(server.ports).toEqual([{ name: 'http', containerPort: 8290 }]);
    expect(server.readinessProbe?.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(server.livenessProbe?.httpGet).toEqual({ path: '/health', port: 'http' });
    const svc = find(sandbox(), 'Service', 'sandbox-merchant')!.spec as { ports: Array<{ name: string; port: number }> };
    expect(svc.ports.map((p) => [p.name, p.port])).toEqual([['http', 8290]]);
  });

  it('should be named in MERCHANT_DIRECTORY, post webhooks to the gateway and sign with a fixed P-256 key', () => {
    const commerce = resolveEnv(sandbox(), 'commerce', 'server');
    expect(JSON.parse((commerce.MERCHANT_DIRECTORY as { value: string }).value)).toEqual({ 'sandbox-merchant.local': 'http://sandbox-merchant:8290' });
    const merchant = resolveEnv(sandbox(), 'sandbox-merchant', 'server');
    expect(merchant).toMatchObject({
      PORT: { value: '8290' },
      PUBLIC_URL: { value: 'http://sandbox-merchant:8290' },
      WEBHOOK_URL: { value: 'http://gateway:8080/v1/commerce/ucp/webhooks/orders' },
      EXCHANGE_ENV: { value: 'sandbox' },
    });
    const ref = merchant.MERCHANT_SIGNING_KEY as { secret: string; key: string };
    expect(ref.secret).toMatch(/^sandbox-merchant-secrets-/);
    expect(JSON.parse(secretValue(sandbox(), ref.secret, ref.key)!)).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String) });
  });

  it('should be reached by commerce only and reach the gateway only', () => {
    const objects = sandbox();
    const [gateway, identity, commerce, merchant] = ['gateway', 'identity', 'commerce', 'sandbox-merchant'].map((n) => pod(objects, n));
    expect(isFlowAllowed(objects, commerce, merchant, merchantHttp)).toBe(true);
    expect(isFlowAllowed(objects, merchant, gateway, { port: 8080, portName: 'http' })).toBe(true);
    expect(isFlowAllowed(objects, gateway, merchant, merchantHttp)).toBe(false);
    expect(isFlowAllowed(objects, identity, merchant, merchantHttp)).toBe(false);
    expect(isFlowAllowed(objects, 'external', merchant, merchantHttp)).toBe(false);
    expect(isFlowAllowed(objects, merchant, commerce, grpc)).toBe(false);
    expect(isFlowAllowed(objects, merchant, 'external', { port: 443 })).toBe(false);
    expect(isFlowAllowed(objects, merchant, pod(objects, 'postgres'), { port: 5432, portName: 'postgres' })).toBe(false);
  });

  it('should not exist in production, and production rules should fail if it appeared there', () => {
    const production = render('production');
    expect(SANDBOX_ONLY_APPS).toEqual(['sandbox-merchant']);
    expect(production.filter((o) => o.metadata?.name?.startsWith('sandbox-merchant'))).toEqual([]);
    const leaked = [...production, ...sandbox().filter((o) => o.metadata?.name?.startsWith('sandbox-merchant') && o.kind !== 'NetworkPolicy')];
    const problems = checkOverlay(leaked, rules.find((r) => r.name === 'production')!);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^Deployment\/sandbox-merchant: sandbox-only app/)]));
  });
});
