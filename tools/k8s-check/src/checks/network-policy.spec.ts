import type { K8sObject } from '../manifest';
import { checkNetworkPolicies, isFlowAllowed } from './network-policy';
import { deployment } from '../testing/fixtures';

const policy = (name: string, spec: Record<string, unknown>): K8sObject => ({ kind: 'NetworkPolicy', metadata: { name }, spec });
const denyAll = policy('default-deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
const gatewayPod = { labels: { app: 'gateway' } };
const identityPod = { labels: { app: 'identity', tier: 'service' } };
const grpc = { port: 50051, portName: 'grpc' };
const identityIngress = policy('identity', {
  podSelector: { matchLabels: { app: 'identity' } },
  policyTypes: ['Ingress'],
  ingress: [{ from: [{ podSelector: { matchLabels: { app: 'gateway' } } }], ports: [{ protocol: 'TCP', port: 50051 }] }],
});
const gatewayEgress = policy('gateway', {
  podSelector: { matchLabels: { app: 'gateway' } },
  policyTypes: ['Egress'],
  egress: [{ to: [{ podSelector: { matchLabels: { app: 'identity' } } }], ports: [{ port: 'grpc' }] }],
});

describe('isFlowAllowed', () => {
  it('should allow everything when no policy selects either pod', () => {
    expect(isFlowAllowed([], gatewayPod, identityPod, grpc)).toBe(true);
  });

  it('should deny everything under a default-deny policy', () => {
    expect(isFlowAllowed([denyAll], gatewayPod, identityPod, grpc)).toBe(false);
    expect(isFlowAllowed([denyAll], 'external', gatewayPod, { port: 8080 })).toBe(false);
  });

  it('should need both the egress of the source and the ingress of the target', () => {
    expect(isFlowAllowed([denyAll, identityIngress], gatewayPod, identityPod, grpc)).toBe(false);
    expect(isFlowAllowed([denyAll, gatewayEgress], gatewayPod, identityPod, grpc)).toBe(false);
    expect(isFlowAllowed([denyAll, identityIngress, gatewayEgress], gatewayPod, identityPod, grpc)).toBe(true);
  });

  it('should match ports by number and by name and reject other ports and peers', () => {
    const objects = [denyAll, identityIngress, gatewayEgress];
    expect(isFlowAllowed(objects, gatewayPod, identityPod, { port: 50052 })).toBe(false);
    expect(isFlowAllowed(objects, identityPod, identityPod, grpc)).toBe(false);
    expect(isFlowAllowed(objects, 'external', identityPod, grpc)).toBe(false);
  });

  it('should treat a rule without peers as any source, external included', () => {
    const open = policy('gateway-in', { podSelector: { matchLabels: { app: 'gateway' } }, ingress: [{ ports: [{ port: 8080 }] }] });
    expect(isFlowAllowed([denyAll, open], 'external', gatewayPod, { port: 8080 })).toBe(true);
    expect(isFlowAllowed([denyAll, open], 'external', gatewayPod, { port: 9090 })).toBe(false);
  });

  it('should honour matchExpressions in peers', () => {
    const expr = policy('identity', {
      podSelector: { matchLabels: { app: 'identity' } },
      ingress: [{ from: [{ podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['gateway', 'market'] }] } }] }],
    });
    expect(isFlowAllowed([expr], gatewayPod, identityPod, grpc)).toBe(true);
    expect(isFlowAllowed([expr], { labels: { app: 'wallet' } }, identityPod, grpc)).toBe(false);
  });
});

describe('checkNetworkPolicies', () => {
  it('should accept a default deny plus a policy for every workload', () => {
    expect(checkNetworkPolicies([denyAll, identityIngress, deployment('identity')])).toEqual([]);
  });

  it('should require a default-deny policy', () => {
    expect(checkNetworkPolicies([identityIngress, deployment('identity')])).toEqual([
      'no default-deny NetworkPolicy (empty podSelector, Ingress+Egress, no rules)',
    ]);
  });

  it('should not count an ingress-only deny-all as default deny', () => {
    const ingressOnly = policy('deny', { podSelector: {}, policyTypes: ['Ingress'] });
    expect(checkNetworkPolicies([ingressOnly, identityIngress, deployment('identity')])).toHaveLength(1);
  });

  it('should flag a workload no policy selects', () => {
    expect(checkNetworkPolicies([denyAll, identityIngress, deployment('identity'), deployment('market')])).toEqual([
      'Deployment/market: no NetworkPolicy selects its pods',
    ]);
  });
});
