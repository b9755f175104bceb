import type { K8sObject, LabelSelector } from '../manifest';
import { nameOf, ofKind, selectorMatches, workloads } from '../manifest';

interface PdbSpec {
  selector?: LabelSelector;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

/**
 * The named Deployments run at least `minReplicas` pods and each is covered by a
 * PodDisruptionBudget that keeps at least one pod during voluntary disruptions.
 */
export function checkHighAvailability(objects: K8sObject[], deployments: string[], minReplicas: number): string[] {
  const problems: string[] = [];
  const pdbs = ofKind(objects, 'PodDisruptionBudget');
  for (const name of deployments) {
    const w = workloads(objects).find((x) => x.kind === 'Deployment' && x.name === name);
    if (!w) {
      problems.push(`Deployment/${name} is missing`);
      continue;
    }
    if (w.replicas < minReplicas) problems.push(`Deployment/${name}: ${w.replicas} replicas, want at least ${minReplicas}`);
    const covering = pdbs.filter((p) => {
      const spec = (p.spec ?? {}) as PdbSpec;
      return spec.selector !== undefined && selectorMatches(spec.selector, w.podLabels) && keepsOnePod(spec, w.replicas);
    });
    if (covering.length === 0) problems.push(`Deployment/${name}: no PodDisruptionBudget keeps a pod available`);
  }
  return problems;
}

function keepsOnePod(spec: PdbSpec, replicas: number): boolean {
  if (typeof spec.minAvailable === 'number') return spec.minAvailable >= 1;
  if (typeof spec.maxUnavailable === 'number') return spec.maxUnavailable < replicas;
  // Percentages: accept any non-zero minAvailable or any maxUnavailable below 100%.
  if (typeof spec.minAvailable === 'string') return parseInt(spec.minAvailable, 10) > 0;
  if (typeof spec.maxUnavailable === 'string') return parseInt(spec.maxUnavailable, 10) < 100;
  return false;
}

export function pdbNames(objects: K8sObject[]): string[] {
  return ofKind(objects, 'PodDisruptionBudget').map(nameOf).sort();
}
