import { checkProbes } from './probes';
import { containerOf, deployment } from '../testing/fixtures';

describe('checkProbes', () => {
  it('should accept grpc readiness and liveness probes on the grpc port', () => {
    expect(checkProbes([deployment('identity')])).toEqual([]);
  });

  it('should require grpc probes for a container with a port named grpc', () => {
    const d = deployment('identity');
    containerOf(d).readinessProbe = { tcpSocket: { port: 'grpc' } };
    expect(checkProbes([d])).toEqual(['Deployment/identity container server: readinessProbe must be a grpc probe on port 50051']);
  });

  it('should flag a grpc probe on another port', () => {
    const d = deployment('identity');
    containerOf(d).livenessProbe = { grpc: { port: 50052 } };
    expect(checkProbes([d])).toEqual([
      'Deployment/identity container server: livenessProbe must be a grpc probe on port 50051',
      'Deployment/identity container server: livenessProbe port 50052 is not a container port',
    ]);
  });

  it('should require readiness and liveness probes on every container', () => {
    const d = deployment('gateway');
    const c = containerOf(d);
    c.ports = [{ name: 'http', containerPort: 8080 }];
    c.readinessProbe = { httpGet: { path: '/health', port: 'http' } };
    delete c.livenessProbe;
    expect(checkProbes([d])).toEqual(['Deployment/gateway container server: livenessProbe missing']);
  });

  it('should flag an http probe on a port name the container does not have', () => {
    const d = deployment('gateway');
    const c = containerOf(d);
    c.ports = [{ name: 'http', containerPort: 8080 }];
    c.readinessProbe = { httpGet: { path: '/health', port: 'web' } };
    c.livenessProbe = { tcpSocket: { port: 8080 } };
    expect(checkProbes([d])).toEqual(['Deployment/gateway container server: readinessProbe port web is not a container port']);
  });
});
