import type { K8sObject, Workload } from '../manifest';
import { allContainers, find, nameOf, workloads } from '../manifest';

/** Secrets that the overlay does not render but the operator creates: name → keys. */
export type ExternalSecrets = Record<string, string[]>;

export interface ReferenceReport {
  problems: string[];
  /** Secret names referenced from the workloads and satisfied by `external`. */
  externalSecretsUsed: string[];
}

/**
 * Every Secret/ConfigMap a workload reads (env valueFrom, envFrom, volumes) exists in the
 * render with the key asked for — or, for Secrets, is listed in `external` with that key.
 * ServiceAccounts and StatefulSet governing Services must exist too. `optional: true`
 * references are allowed to dangle, as in Kubernetes.
 */
export function checkReferences(objects: K8sObject[], external: ExternalSecrets = {}): ReferenceReport {
  const problems: string[] = [];
  const used = new Set<string>();

  const check = (w: Workload, kind: 'Secret' | 'ConfigMap', name: string | undefined, key: string | undefined, optional: boolean | undefined, via: string) => {
    if (optional) return;
    const where = `${w.kind}/${w.name} ${via}`;
    if (!name) {
      problems.push(`${where}: ${kind} reference without a name`);
      return;
    }
    const obj = find(objects, kind, name);
    if (obj) {
      const keys = Object.keys({ ...(obj.data ?? {}), ...(obj.stringData ?? {}) });
      if (key !== undefined && !keys.includes(key)) problems.push(`${where}: ${kind} ${name} has no key ${key}`);
      return;
    }
    if (kind === 'Secret' && external[name]) {
      used.add(name);
      if (key !== undefined && !external[name].includes(key)) {
        problems.push(`${where}: operator-provided Secret ${name} is not documented with key ${key}`);
      }
      return;
    }
    problems.push(`${where}: ${kind} ${name} does not exist in the render`);
  };

  for (const w of workloads(objects)) {
    for (const c of allContainers(w.pod)) {
      for (const e of c.env ?? []) {
        const s = e.valueFrom?.secretKeyRef;
        if (s) check(w, 'Secret', s.name, s.key, s.optional, `env ${e.name}`);
        const m = e.valueFrom?.configMapKeyRef;
        if (m) check(w, 'ConfigMap', m.name, m.key, m.optional, `env ${e.name}`);
      }
      for (const from of c.envFrom ?? []) {
        if (from.secretRef) check(w, 'Secret', from.secretRef.name, undefined, from.secretRef.optional, 'envFrom');
        if (from.configMapRef) check(w, 'ConfigMap', from.configMapRef.name, undefined, from.configMapRef.optional, 'envFrom');
      }
    }
    for (const v of w.pod.volumes ?? []) {
      if (v.secret) check(w, 'Secret', v.secret.secretName, undefined, v.secret.optional, `volume ${v.name}`);
      if (v.configMap) check(w, 'ConfigMap', v.configMap.name, undefined, v.configMap.optional, `volume ${v.name}`);
    }
    const sa = w.pod.serviceAccountName;
    if (sa && sa !== 'default' && !find(objects, 'ServiceAccount', sa)) {
      problems.push(`${w.kind}/${w.name}: ServiceAccount ${sa} does not exist in the render`);
    }
    if (w.kind === 'StatefulSet') {
      const serviceName = (w.object.spec as { serviceName?: string } | undefined)?.serviceName;
      const svc = serviceName ? find(objects, 'Service', serviceName) : undefined;
      if (!svc) problems.push(`StatefulSet/${w.name}: governing Service ${serviceName ?? '(none)'} does not exist`);
      else if ((svc.spec as { clusterIP?: string }).clusterIP !== 'None') {
        problems.push(`StatefulSet/${w.name}: governing Service ${nameOf(svc)} must be headless`);
      }
    }
  }
  return { problems, externalSecretsUsed: [...used].sort() };
}
