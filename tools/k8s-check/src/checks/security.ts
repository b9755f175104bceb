import { allContainers, type Container, type SecurityContext, type Workload, workloads, type K8sObject } from '../manifest';

/**
 * Every container (init containers too) of every Deployment/StatefulSet runs as a non-root uid,
 * cannot escalate, has no capabilities, a read-only root filesystem, seccomp RuntimeDefault,
 * and explicit CPU/memory requests and limits. Pod-level settings count unless the container
 * overrides them, as in Kubernetes.
 */
export function checkContainerSecurity(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const w of workloads(objects)) {
    for (const c of allContainers(w.pod)) {
      const where = `${w.kind}/${w.name} container ${c.name}`;
      problems.push(...securityProblems(effectiveSecurity(w, c)).map((p) => `${where}: ${p}`));
      problems.push(...resourceProblems(c).map((p) => `${where}: ${p}`));
    }
  }
  return problems;
}

function effectiveSecurity(w: Workload, c: Container): SecurityContext {
  const pod = w.pod.securityContext ?? {};
  const own = c.securityContext ?? {};
  return {
    runAsNonRoot: own.runAsNonRoot ?? pod.runAsNonRoot,
    runAsUser: own.runAsUser ?? pod.runAsUser,
    seccompProfile: own.seccompProfile ?? pod.seccompProfile,
    allowPrivilegeEscalation: own.allowPrivilegeEscalation,
    privileged: own.privileged,
    readOnlyRootFilesystem: own.readOnlyRootFilesystem,
    capabilities: own.capabilities,
  };
}

function securityProblems(s: SecurityContext): string[] {
  const problems: string[] = [];
  if (s.runAsNonRoot !== true) problems.push('runAsNonRoot must be true');
  // A numeric uid lets the kubelet verify non-root even when the image's USER is a name.
  if (!Number.isInteger(s.runAsUser) || (s.runAsUser as number) <= 0) problems.push('runAsUser must be a non-zero uid');
  if (s.allowPrivilegeEscalation !== false) problems.push('allowPrivilegeEscalation must be false');
  if (s.privileged === true) problems.push('privileged must not be true');
  if (s.readOnlyRootFilesystem !== true) problems.push('readOnlyRootFilesystem must be true');
  if (!(s.capabilities?.drop ?? []).includes('ALL')) problems.push('capabilities.drop must include ALL');
  if ((s.capabilities?.add ?? []).length > 0) problems.push('capabilities.add must be empty');
  if (s.seccompProfile?.type !== 'RuntimeDefault') problems.push('seccompProfile.type must be RuntimeDefault');
  return problems;
}

function resourceProblems(c: Container): string[] {
  const problems: string[] = [];
  for (const kind of ['requests', 'limits'] as const) {
    for (const resource of ['cpu', 'memory']) {
      if (!c.resources?.[kind]?.[resource]) problems.push(`resources.${kind}.${resource} missing`);
    }
  }
  return problems;
}
