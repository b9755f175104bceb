import * as fs from 'node:fs';
import * as path from 'node:path';
import type { K8sObject } from './manifest';
import { checkInClusterAddresses } from './checks/addresses';
import { checkHighAvailability } from './checks/availability';
import { checkImages } from './checks/images';
import { checkNetworkPolicies } from './checks/network-policy';
import { checkProbes } from './checks/probes';
import { checkAbsentApps } from './checks/sandbox-only';
import { type ExternalSecrets, checkReferences } from './checks/references';
import { checkContainerSecurity } from './checks/security';
import { checkServicePorts } from './checks/service-ports';
import { parseOperatorSecrets } from './operator-secrets';

export interface OverlayRules {
  name: string;
  dir: string;
  /** Images must be release versions or digests. */
  pinnedImages: boolean;
  /** Secrets the operator creates outside the render (documented in the overlay README). */
  externalSecrets: ExternalSecrets;
  /** Deployments that must run several replicas behind a PodDisruptionBudget. */
  highAvailability?: { deployments: string[]; minReplicas: number };
  /** Apps that must not be in the render at all (sandbox-only apps in production). */
  absentApps?: string[];
}

export const APP_DEPLOYMENTS = ['gateway', 'identity', 'wallet-ledger', 'market', 'registry', 'commerce', 'workflows', 'telemetry'];

/** Apps of the sandbox overlay only: the fake UCP business must never reach production. */
export const SANDBOX_ONLY_APPS = ['sandbox-merchant'];

/** Every directory under k8s/overlays, with the stricter rules production needs. */
export function overlayRules(repoRoot: string): OverlayRules[] {
  const overlaysDir = path.join(repoRoot, 'k8s', 'overlays');
  return fs
    .readdirSync(overlaysDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const dir = path.join(overlaysDir, name);
      if (name !== 'production') return { name, dir, pinnedImages: false, externalSecrets: {} };
      return {
        name,
        dir,
        pinnedImages: true,
        externalSecrets: parseOperatorSecrets(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')),
        highAvailability: { deployments: APP_DEPLOYMENTS, minReplicas: 2 },
        absentApps: SANDBOX_ONLY_APPS,
      };
    });
}

/** All generic rules for one rendered overlay; an empty list means it passes. */
export function checkOverlay(objects: K8sObject[], rules: OverlayRules): string[] {
  return [
    ...checkContainerSecurity(objects),
    ...checkProbes(objects),
    ...checkServicePorts(objects),
    ...checkReferences(objects, rules.externalSecrets).problems,
    ...checkInClusterAddresses(objects),
    ...checkNetworkPolicies(objects),
    ...checkImages(objects, { pinned: rules.pinnedImages }),
    ...(rules.highAvailability ? checkHighAvailability(objects, rules.highAvailability.deployments, rules.highAvailability.minReplicas) : []),
    ...checkAbsentApps(objects, rules.absentApps ?? []),
  ];
}
