import { checkServicePorts } from './service-ports';
import { deployment, service } from '../testing/fixtures';

describe('checkServicePorts', () => {
  it('should accept a Service whose named targetPort is the same container port', () => {
    expect(checkServicePorts([deployment('identity'), service('identity', [{ port: 50051, targetPort: 'grpc' }])])).toEqual([]);
  });

  it('should accept a numeric targetPort and a missing one (defaults to port)', () => {
    expect(checkServicePorts([deployment('identity'), service('identity', [{ port: 50051, targetPort: 50051 }])])).toEqual([]);
    expect(checkServicePorts([deployment('identity'), service('identity', [{ port: 50051 }])])).toEqual([]);
  });

  it('should flag a targetPort that no selected container exposes', () => {
    expect(checkServicePorts([deployment('identity'), service('identity', [{ port: 50051, targetPort: 'http' }])])).toEqual([
      'Service/identity: port 50051 targets http, which no selected container exposes',
    ]);
  });

  it('should flag a Service port that differs from the container port', () => {
    expect(checkServicePorts([deployment('identity'), service('identity', [{ port: 80, targetPort: 'grpc' }])])).toEqual([
      'Service/identity: port 80 differs from container port 50051',
    ]);
  });

  it('should flag a Service that selects nothing', () => {
    expect(checkServicePorts([deployment('identity'), service('identiy', [{ port: 50051 }])])).toEqual([
      'Service/identiy: selects no Deployment or StatefulSet',
    ]);
  });
});
