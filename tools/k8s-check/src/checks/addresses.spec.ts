import type { K8sObject } from '../manifest';
import { checkInClusterAddresses, secretValue, shortAddress } from './addresses';
import { containerOf, deployment, service } from '../testing/fixtures';

describe('shortAddress', () => {
  it('should find in-cluster host:port in plain and URL forms', () => {
    expect(shortAddress('identity:50051')).toEqual({ host: 'identity', port: 50051 });
    expect(shortAddress('nats://nats:4222')).toEqual({ host: 'nats', port: 4222 });
    expect(shortAddress('postgresql://exchange:pw@postgres:5432/identity')).toEqual({ host: 'postgres', port: 5432 });
  });

  it('should ignore external names, plain values and secrets that merely contain colons', () => {
    expect(shortAddress('db.internal:5432')).toBeUndefined();
    expect(shortAddress('postgresql://u:p@db.example.com:5432/identity')).toBeUndefined();
    expect(shortAddress('8080')).toBeUndefined();
    expect(shortAddress('sandbox=token')).toBeUndefined();
  });
});

describe('checkInClusterAddresses', () => {
  const gateway = (value: string) => {
    const d = deployment('gateway');
    containerOf(d).env = [{ name: 'IDENTITY_GRPC_URL', value }];
    return d;
  };

  it('should accept an address served by a Service with that port', () => {
    expect(checkInClusterAddresses([gateway('identity:50051'), service('identity', [{ port: 50051 }])])).toEqual([]);
  });

  it('should flag a missing Service and a wrong port', () => {
    expect(checkInClusterAddresses([gateway('identity:50051')])).toEqual(['Deployment/gateway env IDENTITY_GRPC_URL: no Service named identity']);
    expect(checkInClusterAddresses([gateway('identity:50052'), service('identity', [{ port: 50051 }])])).toEqual([
      'Deployment/gateway env IDENTITY_GRPC_URL: Service identity has no port 50052',
    ]);
  });

  it('should decode rendered Secrets and check their addresses too', () => {
    const d = deployment('identity');
    containerOf(d).env = [{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 's', key: 'DATABASE_URL' } } }];
    const s: K8sObject = { kind: 'Secret', metadata: { name: 's' }, data: { DATABASE_URL: Buffer.from('postgresql://u:p@postgres:5432/identity').toString('base64') } };
    expect(secretValue([s], 's', 'DATABASE_URL')).toBe('postgresql://u:p@postgres:5432/identity');
    expect(checkInClusterAddresses([d, s])).toEqual(['Deployment/identity env DATABASE_URL: no Service named postgres']);
  });
});
