import type { K8sObject } from '../manifest';
import { nameOf, workloads } from '../manifest';

/**
 * None of `apps` (sandbox-only apps such as the fake UCP merchant) is in the render: no object
 * named after it (or `<name>-…`, as generated ConfigMaps and Secrets are) or labelled `app: <name>`, no pod template labelled so, and no ConfigMap value
 * that points at it (e.g. a MERCHANT_DIRECTORY naming the sandbox merchant).
 */
export function checkAbsentApps(objects: K8sObject[], apps: string[]): string[] {
  const problems: string[] = [];
  for (const app of apps) {
    for (const o of objects) {
      const named = nameOf(o) === app || nameOf(o).startsWith(`${app}-`); // generated: <name>-<hash>
      if (named || o.metadata?.labels?.app === app) problems.push(`${o.kind}/${nameOf(o)}: sandbox-only app ${app} must not be deployed here`);
      if (o.kind === 'ConfigMap') {
        for (const [key, value] of Object.entries(o.data ?? {})) {
          if (value.includes(app)) problems.push(`ConfigMap/${nameOf(o)} ${key}: refers to sandbox-only app ${app}`);
        }
      }
    }
    for (const w of workloads(objects)) {
      if (w.podLabels.app === app && w.name !== app) problems.push(`${w.kind}/${w.name}: pods labelled app=${app} (sandbox-only)`);
    }
  }
  return problems;
}
