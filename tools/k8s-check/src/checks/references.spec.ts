import type { K8sObject } from '../manifest';
import { checkReferences } from './references';
import { containerOf, deployment, service } from '../testing/fixtures';

function identityReading(secret: string, key: string, optional?: boolean): K8sObject {
  const d = deployment('identity');
  containerOf(d).env = [{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: secret, key, optional } } }];
  containerOf(d).envFrom = [{ configMapRef: { name: 'identity-config-abc' } }];
  return d;
}
const config: K8sObject = { kind: 'ConfigMap', metadata: { name: 'identity-config-abc' }, data: { GRPC_PORT: '50051' } };
const secret: K8sObject = { kind: 'Secret', metadata: { name: 'identity-secrets-xyz' }, data: { DATABASE_URL: 'cG9zdGdyZXM=' } };

describe('checkReferences', () => {
  it('should accept references to a Secret key and a ConfigMap present in the render', () => {
    expect(checkReferences([identityReading('identity-secrets-xyz', 'DATABASE_URL'), config, secret])).toEqual({ problems: [], externalSecretsUsed: [] });
  });

  it('should flag a Secret that is not rendered and not operator-provided', () => {
    expect(checkReferences([identityReading('identity-secrets', 'DATABASE_URL'), config]).problems).toEqual([
      'Deployment/identity env DATABASE_URL: Secret identity-secrets does not exist in the render',
    ]);
  });

  it('should flag a key the rendered Secret does not have', () => {
    expect(checkReferences([identityReading('identity-secrets-xyz', 'DB_URL'), config, secret]).problems).toEqual([
      'Deployment/identity env DATABASE_URL: Secret identity-secrets-xyz has no key DB_URL',
    ]);
  });

  it('should accept a documented operator-provided Secret and report it as used', () => {
    const report = checkReferences([identityReading('identity-secrets', 'DATABASE_URL'), config], { 'identity-secrets': ['DATABASE_URL'] });
    expect(report).toEqual({ problems: [], externalSecretsUsed: ['identity-secrets'] });
  });

  it('should flag a key missing from the documented operator-provided Secret', () => {
    expect(checkReferences([identityReading('identity-secrets', 'DATABASE_URL'), config], { 'identity-secrets': ['OTHER'] }).problems).toEqual([
      'Deployment/identity env DATABASE_URL: operator-provided Secret identity-secrets is not documented with key DATABASE_URL',
    ]);
  });

  it('should allow optional references to dangle', () => {
    expect(checkReferences([identityReading('nope', 'X', true), config]).problems).toEqual([]);
  });

  it('should flag a missing envFrom ConfigMap, volume ConfigMap and ServiceAccount', () => {
    const d = identityReading('identity-secrets-xyz', 'DATABASE_URL');
    const pod = (d.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    pod.volumes = [{ name: 'init', configMap: { name: 'postgres-init' } }];
    pod.serviceAccountName = 'identity';
    expect(checkReferences([d, secret]).problems).toEqual([
      'Deployment/identity envFrom: ConfigMap identity-config-abc does not exist in the render',
      'Deployment/identity volume init: ConfigMap postgres-init does not exist in the render',
      'Deployment/identity: ServiceAccount identity does not exist in the render',
    ]);
  });

  it('should require a headless governing Service for a StatefulSet', () => {
    const sts: K8sObject = { ...deployment('nats'), kind: 'StatefulSet' };
    (sts.spec as Record<string, unknown>).serviceName = 'nats';
    expect(checkReferences([sts]).problems).toEqual(['StatefulSet/nats: governing Service nats does not exist']);
    expect(checkReferences([sts, service('nats', [{ port: 4222 }])]).problems).toEqual(['StatefulSet/nats: governing Service nats must be headless']);
    const headless = service('nats', [{ port: 4222 }]);
    (headless.spec as Record<string, unknown>).clusterIP = 'None';
    expect(checkReferences([sts, headless]).problems).toEqual([]);
  });
});
