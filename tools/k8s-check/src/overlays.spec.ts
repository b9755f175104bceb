// Renders every overlay under k8s/overlays with `kubectl kustomize` and checks the objects (the
// sandbox and production overlays' own rules: overlay-environments.spec.ts).
import { describeWithExecutable } from '@exchange/testing';
import { isFlowAllowed } from './checks/network-policy';
import { resolveEnv } from './env';
import { find, workloads } from './manifest';
import { checkOverlay, APP_DEPLOYMENTS } from './overlay-checks';
import { render, pod, rules } from './overlay-render';

describeWithExecutable('every overlay', 'kubectl', 'apt-get install -y kubectl', () => {
  it('should include sandbox and production', () => {
    expect(rules.map((r) => r.name)).toEqual(expect.arrayContaining(['production', 'sandbox']));
  });

  describe.each(rules.map((r) => [r.name, r] as const))('%s', (name, overlay) => {
    it('should pass every generic rule (security, probes, ports, references, addresses, policies, images)', () => {
      expect(checkOverlay(render(name), overlay)).toEqual([]);
    });

    it('should run every app (APP_DEPLOYMENTS) with container "server", app labels and a ServiceAccount each', () => {
      const objects = render(name);
      for (const app of APP_DEPLOYMENTS) {
        const w = workloads(objects).find((x) => x.kind === 'Deployment' && x.name === app)!;
        expect(w.podLabels.app).toBe(app);
        expect(w.pod.containers?.map((c) => c.name)).toEqual(['server']);
        expect(w.pod.serviceAccountName).toBe(app);
        expect(w.pod.containers![0].securityContext?.runAsUser ?? w.pod.securityContext?.runAsUser).toBe(10001);
        expect(find(objects, 'ServiceAccount', app)).toBeDefined();
      }
    });

    it.each(['identity', 'wallet-ledger', 'market', 'registry', 'commerce'])('should give %s grpc probes on port 50051 behind its Service on 50051', (service) => {
      const objects = render(name);
      const server = workloads(objects).find((x) => x.name === service)!.pod.containers![0];
      expect(server.ports).toEqual([{ name: 'grpc', containerPort: 50051 }]);
      expect(server.startupProbe?.grpc?.port).toBe(50051);
      expect(server.readinessProbe?.grpc?.port).toBe(50051);
      expect(server.livenessProbe?.grpc?.port).toBe(50051);
      const svc = find(objects, 'Service', service)!.spec as { ports: Array<{ name: string; port: number }> };
      expect(svc.ports.map((p) => [p.name, p.port])).toEqual([['grpc', 50051]]);
    });

    it('should give the gateway an HTTP readiness probe on /health and a liveness probe', () => {
      const server = workloads(render(name)).find((x) => x.name === 'gateway')!.pod.containers![0];
      expect(server.readinessProbe?.httpGet).toEqual({ path: '/health', port: 'http' });
      expect(server.livenessProbe).toBeDefined();
    });

    it('should configure identity, wallet-ledger, market, registry and gateway per the env conventions', () => {
      const objects = render(name);
      const identity = resolveEnv(objects, 'identity', 'server');
      expect(identity).toMatchObject({
        GRPC_PORT: { value: '50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        REGISTRY_GRPC_URL: { value: 'registry:50051' },
        LOG_LEVEL: { value: expect.any(String) },
        DATABASE_URL: { secret: expect.stringMatching(/^identity-secrets/), key: 'DATABASE_URL' },
      });
      const walletLedger = resolveEnv(objects, 'wallet-ledger', 'server');
      expect(walletLedger).toMatchObject({
        GRPC_PORT: { value: '50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        IDENTITY_GRPC_URL: { value: 'identity:50051' },
        REGISTRY_GRPC_URL: { value: 'registry:50051' },
        COMMERCE_GRPC_URL: { value: 'commerce:50051' },
        LOG_LEVEL: { value: expect.any(String) },
        DATABASE_URL: { secret: expect.stringMatching(/^wallet-ledger-secrets/), key: 'DATABASE_URL' },
        EXCHANGE_SIGNING_KEY: { secret: expect.stringMatching(/^wallet-ledger-secrets/), key: 'EXCHANGE_SIGNING_KEY' },
      });
      const market = resolveEnv(objects, 'market', 'server');
      expect(market).toMatchObject({
        GRPC_PORT: { value: '50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        IDENTITY_GRPC_URL: { value: 'identity:50051' },
        WALLET_LEDGER_GRPC_URL: { value: 'wallet-ledger:50051' },
        LOG_LEVEL: { value: expect.any(String) },
        DATABASE_URL: { secret: expect.stringMatching(/^market-secrets/), key: 'DATABASE_URL' },
      });
      const gateway = resolveEnv(objects, 'gateway', 'server');
      expect(gateway).toMatchObject({
        PORT: { value: '8080' },
        IDENTITY_GRPC_URL: { value: 'identity:50051' },
        WALLET_LEDGER_GRPC_URL: { value: 'wallet-ledger:50051' },
        MARKET_GRPC_URL: { value: 'market:50051' },
        REGISTRY_GRPC_URL: { value: 'registry:50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        OPERATOR_TOKENS: { secret: expect.stringMatching(/^gateway-secrets/), key: 'OPERATOR_TOKENS' },
        EXCHANGE_SIGNING_KEY: { secret: expect.stringMatching(/^gateway-secrets/), key: 'EXCHANGE_SIGNING_KEY' },
      });
      const registry = resolveEnv(objects, 'registry', 'server');
      expect(registry).toMatchObject({
        GRPC_PORT: { value: '50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        IDENTITY_GRPC_URL: { value: 'identity:50051' },
        MARKET_GRPC_URL: { value: 'market:50051' },
        WALLET_LEDGER_GRPC_URL: { value: 'wallet-ledger:50051' },
        ARTIFACT_STORE_DIR: { value: '/var/lib/registry/artifacts' },
        ARTIFACT_MAX_BYTES: { value: '26214400' },
        DATABASE_URL: { secret: expect.stringMatching(/^registry-secrets/), key: 'DATABASE_URL' },
        EXCHANGE_SIGNING_KEY: { secret: expect.stringMatching(/^registry-secrets/), key: 'EXCHANGE_SIGNING_KEY' },
        ARTIFACT_STORE_URL: { secret: expect.stringMatching(/^registry-secrets/), key: 'ARTIFACT_STORE_URL' },
      });
      const mount = workloads(objects).find((x) => x.name === 'registry')!.pod.containers![0].volumeMounts ?? [];
      expect(mount).toEqual(expect.arrayContaining([{ name: 'artifacts', mountPath: '/var/lib/registry/artifacts' }]));
      expect(registry.EXCHANGE_ENV).toEqual(gateway.EXCHANGE_ENV);
      expect(identity.EXCHANGE_ENV).toEqual(gateway.EXCHANGE_ENV);
      expect(walletLedger.EXCHANGE_ENV).toEqual(gateway.EXCHANGE_ENV);
      expect(market.EXCHANGE_ENV).toEqual(gateway.EXCHANGE_ENV);
    });

    it('should run NATS with JetStream on a persistent volume behind nats:4222', () => {
      const objects = render(name);
      const nats = workloads(objects).find((x) => x.kind === 'StatefulSet' && x.name === 'nats');
      expect(nats).toBeDefined();
      expect(nats!.pod.containers![0]).toEqual(expect.objectContaining({ args: expect.arrayContaining(['-js']) }));
      const claims = (nats!.object.spec as { volumeClaimTemplates?: unknown[] }).volumeClaimTemplates ?? [];
      expect(claims).toHaveLength(1);
      const svc = find(objects, 'Service', 'nats')!.spec as { ports: Array<{ port: number }> };
      expect(svc.ports.map((p) => p.port)).toEqual([4222]);
    });

    it('should allow exactly the intended network flows', () => {
      const objects = render(name);
      const gateway = pod(objects, 'gateway');
      const identity = pod(objects, 'identity');
      const nats = pod(objects, 'nats');
      const walletLedger = pod(objects, 'wallet-ledger');
      expect(isFlowAllowed(objects, 'external', gateway, { port: 8080, portName: 'http' })).toBe(true);
      expect(isFlowAllowed(objects, gateway, walletLedger, { port: 50051, portName: 'grpc' })).toBe(true);
      expect(isFlowAllowed(objects, walletLedger, identity, { port: 50051, portName: 'grpc' })).toBe(true);
      expect(isFlowAllowed(objects, walletLedger, nats, { port: 4222, portName: 'client' })).toBe(true);
      // identity never calls wallet-ledger; nothing outside reaches it.
      expect(isFlowAllowed(objects, identity, walletLedger, { port: 50051, portName: 'grpc' })).toBe(false);
      expect(isFlowAllowed(objects, 'external', walletLedger, { port: 50051, portName: 'grpc' })).toBe(false);
      expect(isFlowAllowed(objects, walletLedger, gateway, { port: 8080, portName: 'http' })).toBe(false);
      expect(isFlowAllowed(objects, gateway, identity, { port: 50051, portName: 'grpc' })).toBe(true);
      expect(isFlowAllowed(objects, identity, nats, { port: 4222, portName: 'client' })).toBe(true);
      // Only the gateway reaches identity; the gateway listens to NATS (its agent cache); nothing reaches in from outside.
      expect(isFlowAllowed(objects, 'external', identity, { port: 50051, portName: 'grpc' })).toBe(false);
      expect(isFlowAllowed(objects, nats, identity, { port: 50051, portName: 'grpc' })).toBe(false);
      expect(isFlowAllowed(objects, gateway, nats, { port: 4222, portName: 'client' })).toBe(true);
      expect(isFlowAllowed(objects, 'external', nats, { port: 4222, portName: 'client' })).toBe(false);
      expect(isFlowAllowed(objects, identity, gateway, { port: 8080, portName: 'http' })).toBe(false);
    });

    it('should let the gateway call market, and market call identity and wallet-ledger, and nothing else in', () => {
      const objects = render(name);
      const gateway = pod(objects, 'gateway');
      const identity = pod(objects, 'identity');
      const walletLedger = pod(objects, 'wallet-ledger');
      const market = pod(objects, 'market');
      const nats = pod(objects, 'nats');
      const grpc = { port: 50051, portName: 'grpc' };
      expect(isFlowAllowed(objects, gateway, market, grpc)).toBe(true);
      expect(isFlowAllowed(objects, market, identity, grpc)).toBe(true);
      expect(isFlowAllowed(objects, market, walletLedger, grpc)).toBe(true);
      expect(isFlowAllowed(objects, market, nats, { port: 4222, portName: 'client' })).toBe(true);
      // Only the gateway reaches market; market never calls the gateway.
      expect(isFlowAllowed(objects, 'external', market, grpc)).toBe(false);
      expect(isFlowAllowed(objects, identity, market, grpc)).toBe(false);
      expect(isFlowAllowed(objects, walletLedger, market, grpc)).toBe(false);
      expect(isFlowAllowed(objects, market, gateway, { port: 8080, portName: 'http' })).toBe(false);
    });

    it('should let the gateway, identity and wallet-ledger call registry, and registry call identity, market and wallet-ledger only', () => {
      const objects = render(name);
      const gateway = pod(objects, 'gateway');
      const identity = pod(objects, 'identity');
      const walletLedger = pod(objects, 'wallet-ledger');
      const market = pod(objects, 'market');
      const registry = pod(objects, 'registry');
      const nats = pod(objects, 'nats');
      const grpc = { port: 50051, portName: 'grpc' };
      expect(isFlowAllowed(objects, gateway, registry, grpc)).toBe(true);
      expect(isFlowAllowed(objects, identity, registry, grpc)).toBe(true);
      expect(isFlowAllowed(objects, registry, identity, grpc)).toBe(true);
      expect(isFlowAllowed(objects, registry, market, grpc)).toBe(true);
      expect(isFlowAllowed(objects, registry, walletLedger, grpc)).toBe(true);
      expect(isFlowAllowed(objects, registry, nats, { port: 4222, portName: 'client' })).toBe(true);
      expect(isFlowAllowed(objects, 'external', registry, grpc)).toBe(false);
      expect(isFlowAllowed(objects, market, registry, grpc)).toBe(false);
      // wallet-ledger stores meter events, epoch tables and period receipts there.
      expect(isFlowAllowed(objects, walletLedger, registry, grpc)).toBe(true);
      expect(isFlowAllowed(objects, registry, gateway, { port: 8080, portName: 'http' })).toBe(false);
      // identity's new egress is to registry only (not to market or wallet-ledger).
      expect(isFlowAllowed(objects, identity, market, grpc)).toBe(false);
      expect(isFlowAllowed(objects, identity, walletLedger, grpc)).toBe(false);
    });
  });
});
