// Telemetry in every overlay: its env (no outbound service address), and exactly the flows it needs.
import { describeWithExecutable } from '@exchange/testing';
import { isFlowAllowed } from './checks/network-policy';
import { resolveEnv } from './env';
import { render, pod, rules } from './overlay-render';

const grpc = { port: 50051, portName: 'grpc' };
const CALLEES = ['identity', 'wallet-ledger', 'market', 'registry', 'commerce', 'workflows'];

describeWithExecutable('telemetry in every overlay', 'kubectl', 'apt-get install -y kubectl', () => {
  describe.each(rules.map((r) => [r.name] as const))('%s', (name) => {
    it('should configure telemetry per the env conventions, calling no service, with the gateway and the market pointing at it', () => {
      const objects = render(name);
      const telemetry = resolveEnv(objects, 'telemetry', 'server');
      expect(telemetry).toMatchObject({
        GRPC_PORT: { value: '50051' },
        NATS_URL: { value: 'nats://nats:4222' },
        DATABASE_URL: { secret: expect.stringMatching(/^telemetry-secrets/), key: 'DATABASE_URL' },
      });
      expect(Object.keys(telemetry).filter((k) => k.endsWith('_GRPC_URL'))).toEqual([]);
      expect(telemetry.EXCHANGE_ENV).toEqual(resolveEnv(objects, 'gateway', 'server').EXCHANGE_ENV);
      expect(resolveEnv(objects, 'gateway', 'server').TELEMETRY_GRPC_URL).toEqual({ value: 'telemetry:50051' });
      expect(resolveEnv(objects, 'market', 'server').TELEMETRY_GRPC_URL).toEqual({ value: 'telemetry:50051' });
    });

    it('should let the gateway and the market call telemetry, telemetry reach NATS and PostgreSQL only', () => {
      const objects = render(name);
      const telemetry = pod(objects, 'telemetry');
      expect(isFlowAllowed(objects, pod(objects, 'gateway'), telemetry, grpc)).toBe(true);
      expect(isFlowAllowed(objects, pod(objects, 'market'), telemetry, grpc)).toBe(true);
      expect(isFlowAllowed(objects, telemetry, pod(objects, 'nats'), { port: 4222, portName: 'client' })).toBe(true);
      if (name === 'production') expect(isFlowAllowed(objects, telemetry, 'external', { port: 5432 })).toBe(true);
      else expect(isFlowAllowed(objects, telemetry, pod(objects, 'postgres'), { port: 5432, portName: 'postgres' })).toBe(true);
      // It calls no service and reaches nothing else; no one else calls it.
      for (const other of CALLEES) {
        expect(isFlowAllowed(objects, telemetry, pod(objects, other), grpc)).toBe(false);
        if (other !== 'market') expect(isFlowAllowed(objects, pod(objects, other), telemetry, grpc)).toBe(false);
      }
      expect(isFlowAllowed(objects, 'external', telemetry, grpc)).toBe(false);
      expect(isFlowAllowed(objects, telemetry, 'external', { port: 443 })).toBe(false);
      // Market's new egress rule reaches telemetry only, not another service's ingress.
      expect(isFlowAllowed(objects, pod(objects, 'market'), pod(objects, 'commerce'), grpc)).toBe(false);
    });
  });
});
