import type { K8sObject } from './manifest';
import { find, workloads } from './manifest';

export type EnvSource = { value: string } | { secret: string; key: string } | { configMap: string; key: string; missing: true };

/**
 * The environment a container would see, resolved against the render: envFrom ConfigMaps
 * first, then `env` entries (which win, as in Kubernetes). Secret values stay references.
 */
export function resolveEnv(objects: K8sObject[], workload: string, container: string): Record<string, EnvSource> {
  const w = workloads(objects).find((x) => x.name === workload);
  const c = w?.pod.containers?.find((x) => x.name === container);
  if (!c) throw new Error(`container ${container} of ${workload} not found`);
  const env: Record<string, EnvSource> = {};
  for (const from of c.envFrom ?? []) {
    const cm = from.configMapRef?.name ? find(objects, 'ConfigMap', from.configMapRef.name) : undefined;
    for (const [k, v] of Object.entries(cm?.data ?? {})) env[k] = { value: v };
  }
  for (const e of c.env ?? []) {
    const s = e.valueFrom?.secretKeyRef;
    const m = e.valueFrom?.configMapKeyRef;
    if (s?.name && s.key) env[e.name] = { secret: s.name, key: s.key };
    else if (m?.name && m.key) {
      const value = find(objects, 'ConfigMap', m.name)?.data?.[m.key];
      env[e.name] = value === undefined ? { configMap: m.name, key: m.key, missing: true } : { value };
    } else if (e.value !== undefined) env[e.name] = { value: e.value };
  }
  return env;
}
