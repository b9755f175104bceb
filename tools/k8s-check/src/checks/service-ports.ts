import type { ContainerPort, K8sObject, LabelSelector } from '../manifest';
import { nameOf, ofKind, selectorMatches, workloads } from '../manifest';

interface ServiceSpec {
  selector?: Record<string, string>;
  ports?: Array<{ name?: string; port: number; targetPort?: number | string }>;
}

/**
 * Every Service selects at least one workload, and each of its ports targets a port that the
 * selected containers really expose, with the same number (so `identity:50051` is 50051
 * everywhere and nobody has to remember a translation).
 */
export function checkServicePorts(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const all = workloads(objects);
  for (const svc of ofKind(objects, 'Service')) {
    const spec = (svc.spec ?? {}) as ServiceSpec;
    const where = `Service/${nameOf(svc)}`;
    if (!spec.selector || Object.keys(spec.selector).length === 0) {
      problems.push(`${where}: has no selector`);
      continue;
    }
    const selector: LabelSelector = { matchLabels: spec.selector };
    const selected = all.filter((w) => selectorMatches(selector, w.podLabels));
    if (selected.length === 0) {
      problems.push(`${where}: selects no Deployment or StatefulSet`);
      continue;
    }
    const containerPorts: ContainerPort[] = selected.flatMap((w) => (w.pod.containers ?? []).flatMap((c) => c.ports ?? []));
    for (const port of spec.ports ?? []) {
      const target = port.targetPort ?? port.port;
      const match = containerPorts.find((p) => (typeof target === 'number' ? p.containerPort === target : p.name === target));
      if (!match) {
        problems.push(`${where}: port ${port.port} targets ${target}, which no selected container exposes`);
      } else if (match.containerPort !== port.port) {
        problems.push(`${where}: port ${port.port} differs from container port ${match.containerPort}`);
      }
    }
  }
  return problems;
}
