import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import type { K8sObject } from './manifest';

/** True when a `kubectl` binary is on PATH. */
export function kubectlAvailable(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Renders a Kustomize directory with `kubectl kustomize` and parses every document. */
export function renderKustomization(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  return parseManifests(out);
}

export function parseManifests(text: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0].message}`);
    const value = doc.toJS() as K8sObject | null;
    if (value) objects.push(value);
  }
  return objects;
}
