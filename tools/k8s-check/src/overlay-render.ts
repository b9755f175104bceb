// What the overlay specs share: every overlay rendered once with `kubectl kustomize`.
import * as path from 'node:path';
import { overlayRules } from './overlay-checks';
import type { Endpoint } from './checks/network-policy';
import { workloads, type K8sObject } from './manifest';
import { renderKustomization } from './render';

const repoRoot = path.resolve(__dirname, '../../..');
export const rules = overlayRules(repoRoot);
const renders = new Map<string, K8sObject[]>();
export function render(name: string): K8sObject[] {
  let objects = renders.get(name);
  if (!objects) {
    objects = renderKustomization(path.join(repoRoot, 'k8s', 'overlays', name));
    renders.set(name, objects);
  }
  return objects;
}
export const pod = (objects: K8sObject[], name: string): Endpoint => {
  const w = workloads(objects).find((x) => x.name === name);
  if (!w) throw new Error(`workload ${name} not rendered`);
  return { labels: w.podLabels };
};
