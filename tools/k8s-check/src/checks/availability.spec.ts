import type { K8sObject } from '../manifest';
import { checkHighAvailability } from './availability';
import { deployment } from '../testing/fixtures';

const pdb = (app: string, spec: Record<string, unknown>): K8sObject => ({
  kind: 'PodDisruptionBudget',
  metadata: { name: app },
  spec: { selector: { matchLabels: { app } }, ...spec },
});

describe('checkHighAvailability', () => {
  it('should accept enough replicas with a PDB keeping one pod', () => {
    expect(checkHighAvailability([deployment('gateway', { replicas: 3 }), pdb('gateway', { minAvailable: 1 })], ['gateway'], 2)).toEqual([]);
    expect(checkHighAvailability([deployment('gateway', { replicas: 3 }), pdb('gateway', { maxUnavailable: 1 })], ['gateway'], 2)).toEqual([]);
  });

  it('should flag too few replicas', () => {
    expect(checkHighAvailability([deployment('identity', { replicas: 1 }), pdb('identity', { minAvailable: 1 })], ['identity'], 2)).toEqual([
      'Deployment/identity: 1 replicas, want at least 2',
    ]);
  });

  it('should flag a missing, mismatched or useless PDB', () => {
    const want = ['Deployment/identity: no PodDisruptionBudget keeps a pod available'];
    expect(checkHighAvailability([deployment('identity', { replicas: 2 })], ['identity'], 2)).toEqual(want);
    expect(checkHighAvailability([deployment('identity', { replicas: 2 }), pdb('gateway', { minAvailable: 1 })], ['identity'], 2)).toEqual(want);
    expect(checkHighAvailability([deployment('identity', { replicas: 2 }), pdb('identity', { minAvailable: 0 })], ['identity'], 2)).toEqual(want);
    expect(checkHighAvailability([deployment('identity', { replicas: 2 }), pdb('identity', { maxUnavailable: 2 })], ['identity'], 2)).toEqual(want);
  });

  it('should flag a Deployment that is missing', () => {
    expect(checkHighAvailability([], ['identity'], 2)).toEqual(['Deployment/identity is missing']);
  });
});
