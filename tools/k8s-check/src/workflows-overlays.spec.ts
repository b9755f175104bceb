// Workflows in every overlay: its env, and exactly the flows it needs.
import { describeWithExecutable } from '@exchange/testing';
import { isFlowAllowed } from './checks/network-policy';
import { resolveEnv } from './env';
import { render, pod, rules } from './overlay-render';

const grpc = { port: 50051, portName: 'grpc' };

describeWithExecutable('workflows in every overlay', 'kubectl', 'apt-get install -y kubectl', () => {
  describe.each(rules.map((r) => [r.name] as const))('%s', (name) => {
    it('should configure workflows per the env conventions, with the gateway pointing at it', () => {
      const objects = render(name);
      const workflows = resolveEnv(objects, 'workflows', 'server');
      expect(workflows).toMatchObject({
        GRPC_PORT: { value: '50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        IDENTITY_GRPC_URL: { value: 'identity:50051' },
        MARKET_GRPC_URL: { value: 'market:50051' },
        WALLET_LEDGER_GRPC_URL: { value: 'wallet-ledger:50051' },
        REGISTRY_GRPC_URL: { value: 'registry:50051' },
        DATABASE_URL: { secret: expect.stringMatching(/^workflows-secrets/), key: 'DATABASE_URL' },
        EXCHANGE_SIGNING_KEY: { secret: expect.stringMatching(/^workflows-secrets/), key: 'EXCHANGE_SIGNING_KEY' },
      });
      expect(workflows.EXCHANGE_ENV).toEqual(resolveEnv(objects, 'gateway', 'server').EXCHANGE_ENV);
      expect(resolveEnv(objects, 'gateway', 'server').WORKFLOWS_GRPC_URL).toEqual({ value: 'workflows:50051' });
    });

    it('should let the gateway and commerce call workflows, workflows call identity, market, wallet-ledger, registry and NATS, and nothing else', () => {
      const objects = render(name);
      const [gateway, identity, walletLedger, market, registry, commerce, workflows] = ['gateway', 'identity', 'wallet-ledger', 'market', 'registry', 'commerce', 'workflows'].map((n) => pod(objects, n));
      expect(isFlowAllowed(objects, gateway, workflows, grpc)).toBe(true);
      // commerce: a checkout origin's run owner.
      expect(isFlowAllowed(objects, commerce, workflows, grpc)).toBe(true);
      for (const callee of [identity, market, walletLedger, registry]) expect(isFlowAllowed(objects, workflows, callee, grpc)).toBe(true);
      expect(isFlowAllowed(objects, workflows, pod(objects, 'nats'), { port: 4222, portName: 'client' })).toBe(true);
      // Nobody else calls it, and it reaches neither commerce nor the internet.
      expect(isFlowAllowed(objects, 'external', workflows, grpc)).toBe(false);
      expect(isFlowAllowed(objects, market, workflows, grpc)).toBe(false);
      expect(isFlowAllowed(objects, workflows, commerce, grpc)).toBe(false);
      expect(isFlowAllowed(objects, workflows, 'external', { port: 443 })).toBe(false);
      // Workflows' ingress rules on the services it calls let only it in, not commerce too.
      expect(isFlowAllowed(objects, commerce, registry, grpc)).toBe(false);
    });
  });
});
