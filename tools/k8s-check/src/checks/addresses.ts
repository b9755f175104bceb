import type { K8sObject } from '../manifest';
import { find, workloads } from '../manifest';
import { resolveEnv } from '../env';

/**
 * Env values that address an in-cluster Service by short name (`identity:50051`,
 * `nats://nats:4222`, `postgresql://…@postgres:5432/identity`) must name a Service of the
 * render that exposes that port. Values read from rendered Secrets are decoded and checked too;
 * operator-provided Secrets are not visible and are skipped.
 */
export function checkInClusterAddresses(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const w of workloads(objects)) {
    for (const c of w.pod.containers ?? []) {
      for (const [name, source] of Object.entries(resolveEnv(objects, w.name, c.name))) {
        const value = 'value' in source ? source.value : 'secret' in source ? secretValue(objects, source.secret, source.key) : undefined;
        if (value === undefined) continue;
        const address = shortAddress(value);
        if (!address) continue;
        const svc = find(objects, 'Service', address.host);
        const ports = ((svc?.spec as { ports?: Array<{ port: number }> } | undefined)?.ports ?? []).map((p) => p.port);
        if (!svc) problems.push(`${w.kind}/${w.name} env ${name}: no Service named ${address.host}`);
        else if (!ports.includes(address.port)) problems.push(`${w.kind}/${w.name} env ${name}: Service ${address.host} has no port ${address.port}`);
      }
    }
  }
  return problems;
}

/** host:port where host is a bare Service name (no dots, so not an external DNS name or IP). */
export function shortAddress(value: string): { host: string; port: number } | undefined {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]*@)?([a-z0-9-]+):(\d+)(?:[/?].*)?$/i.exec(value.trim());
  if (!m) return undefined;
  return { host: m[1], port: Number(m[2]) };
}

export function secretValue(objects: K8sObject[], name: string, key: string): string | undefined {
  const secret = find(objects, 'Secret', name);
  if (!secret) return undefined;
  if (secret.stringData?.[key] !== undefined) return secret.stringData[key];
  const b64 = secret.data?.[key];
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64').toString('utf8');
}
