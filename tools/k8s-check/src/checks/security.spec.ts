import { checkContainerSecurity } from './security';
import { containerOf, deployment, hardenedContainer, podSpecOf } from '../testing/fixtures';

describe('checkContainerSecurity', () => {
  it('should accept a hardened container with pod-level runAsNonRoot and seccomp', () => {
    expect(checkContainerSecurity([deployment('identity')])).toEqual([]);
  });

  it('should flag a container that runs as root', () => {
    const d = deployment('identity');
    containerOf(d).securityContext!.runAsUser = 0;
    expect(checkContainerSecurity([d])).toEqual(['Deployment/identity container server: runAsUser must be a non-zero uid']);
  });

  it('should let a container override the pod-level runAsNonRoot', () => {
    const d = deployment('identity');
    containerOf(d).securityContext!.runAsNonRoot = false;
    expect(checkContainerSecurity([d])).toEqual(['Deployment/identity container server: runAsNonRoot must be true']);
  });

  it('should flag a writable root filesystem, escalation, kept capabilities and missing seccomp', () => {
    const d = deployment('gateway');
    podSpecOf(d).securityContext = { runAsNonRoot: true, runAsUser: 10001 };
    containerOf(d).securityContext = { runAsNonRoot: true, runAsUser: 10001, capabilities: { add: ['NET_ADMIN'] } };
    expect(checkContainerSecurity([d])).toEqual([
      'Deployment/gateway container server: allowPrivilegeEscalation must be false',
      'Deployment/gateway container server: readOnlyRootFilesystem must be true',
      'Deployment/gateway container server: capabilities.drop must include ALL',
      'Deployment/gateway container server: capabilities.add must be empty',
      'Deployment/gateway container server: seccompProfile.type must be RuntimeDefault',
    ]);
  });

  it('should require requests and limits for cpu and memory', () => {
    const d = deployment('identity');
    containerOf(d).resources = { requests: { cpu: '100m' } };
    expect(checkContainerSecurity([d])).toEqual([
      'Deployment/identity container server: resources.requests.memory missing',
      'Deployment/identity container server: resources.limits.cpu missing',
      'Deployment/identity container server: resources.limits.memory missing',
    ]);
  });

  it('should check init containers too', () => {
    const d = deployment('identity', { pod: { initContainers: [hardenedContainer({ name: 'migrate', securityContext: {} })] } });
    const problems = checkContainerSecurity([d]);
    expect(problems).toContain('Deployment/identity container migrate: readOnlyRootFilesystem must be true');
    expect(problems.every((p) => p.includes('container migrate'))).toBe(true);
  });

  it('should ignore objects that are not workloads', () => {
    expect(checkContainerSecurity([{ kind: 'ConfigMap', metadata: { name: 'x' }, data: {} }])).toEqual([]);
  });
});
