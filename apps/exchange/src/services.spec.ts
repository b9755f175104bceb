import { SERVICES, serviceGrpcUrls, serviceGrpcUrlsByName } from './services';

describe('SERVICES', () => {
  it('should start identity before wallet-ledger, which looks agents up there', () => {
    const names = SERVICES.map((s) => s.name);
    expect(names.indexOf('identity')).toBeLessThan(names.indexOf('wallet-ledger'));
    expect(SERVICES.find((s) => s.name === 'wallet-ledger')).toEqual({ name: 'wallet-ledger', grpcUrlEnv: 'WALLET_LEDGER_GRPC_URL', database: true });
  });

  it('should start market after identity and wallet-ledger, which it calls, then registry, commerce, workflows and telemetry', () => {
    const names = SERVICES.map((s) => s.name);
    expect(names).toEqual(['identity', 'wallet-ledger', 'market', 'registry', 'commerce', 'workflows', 'telemetry']);
    expect(SERVICES.find((s) => s.name === 'workflows')).toEqual({ name: 'workflows', grpcUrlEnv: 'WORKFLOWS_GRPC_URL', database: true });
    expect(SERVICES.find((s) => s.name === 'commerce')).toEqual({ name: 'commerce', grpcUrlEnv: 'COMMERCE_GRPC_URL', database: true });
    expect(SERVICES.find((s) => s.name === 'registry')).toEqual({ name: 'registry', grpcUrlEnv: 'REGISTRY_GRPC_URL', database: true });
    expect(SERVICES.find((s) => s.name === 'market')).toEqual({ name: 'market', grpcUrlEnv: 'MARKET_GRPC_URL', database: true });
  });

  it('should give each service the port base + its index in distributed mode', () => {
    expect(serviceGrpcUrls(50051)).toEqual({
      IDENTITY_GRPC_URL: '127.0.0.1:50051',
      WALLET_LEDGER_GRPC_URL: '127.0.0.1:50052',
      MARKET_GRPC_URL: '127.0.0.1:50053',
      REGISTRY_GRPC_URL: '127.0.0.1:50054',
      COMMERCE_GRPC_URL: '127.0.0.1:50055',
      WORKFLOWS_GRPC_URL: '127.0.0.1:50056',
      TELEMETRY_GRPC_URL: '127.0.0.1:50057',
    });
    expect(serviceGrpcUrlsByName(6000, '10.0.0.1')).toEqual({
      identity: '10.0.0.1:6000',
      'wallet-ledger': '10.0.0.1:6001',
      market: '10.0.0.1:6002',
      registry: '10.0.0.1:6003',
      commerce: '10.0.0.1:6004',
      workflows: '10.0.0.1:6005',
      telemetry: '10.0.0.1:6006',
    });
  });
});
