import type { Container, K8sObject, PodSpec } from '../manifest';

// Small, valid objects for the unit tests of each check; tests break one field at a time.

export function hardenedContainer(overrides: Partial<Container> = {}): Container {
  return {
    name: 'server',
    image: 'agent-exchange/demo:1.0.0',
    ports: [{ name: 'grpc', containerPort: 50051 }],
    securityContext: {
      runAsNonRoot: true,
      runAsUser: 10001,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    },
    resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } },
    readinessProbe: { grpc: { port: 50051 } },
    livenessProbe: { grpc: { port: 50051 } },
    ...overrides,
  };
}

export function deployment(name: string, opts: { labels?: Record<string, string>; replicas?: number; pod?: Partial<PodSpec> } = {}): K8sObject {
  const labels = opts.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: opts.replicas ?? 1,
      selector: { matchLabels: { app: labels.app } },
      template: {
        metadata: { labels },
        spec: {
          securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [hardenedContainer()],
          ...opts.pod,
        },
      },
    },
  };
}

export function service(name: string, ports: Array<{ port: number; targetPort?: number | string }>, selector: Record<string, string> = { app: name }): K8sObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector, ports } };
}

export function podSpecOf(o: K8sObject): PodSpec {
  return (o.spec as { template: { spec: PodSpec } }).template.spec;
}

export function containerOf(o: K8sObject): Container {
  const [first] = podSpecOf(o).containers ?? [];
  if (!first) throw new Error('fixture has no container');
  return first;
}
