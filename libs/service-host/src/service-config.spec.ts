import { Type } from 'typebox';
import { ConfigError, readConfig } from '@exchange/platform';
import { grpcAddress, serviceConfigBase } from './service-config';

const Schema = Type.Object({ ...serviceConfigBase(), PEER_GRPC_URL: grpcAddress('the peer') });

describe('serviceConfigBase', () => {
  it('gives every service the same defaults', () => {
    const config = readConfig(Schema, { DATABASE_URL: 'postgresql://db/x', PEER_GRPC_URL: 'peer:50051' });
    expect(config).toEqual({
      GRPC_PORT: 50051,
      GRPC_HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://db/x',
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'info',
      OUTBOX_RETENTION_HOURS: 24,
      EVENTS_RETENTION_HOURS: 168,
      PEER_GRPC_URL: 'peer:50051',
    });
  });

  it.each([
    ['DATABASE_URL', { PEER_GRPC_URL: 'peer:1' }],
    ['GRPC_PORT', { DATABASE_URL: 'x', PEER_GRPC_URL: 'peer:1', GRPC_PORT: '70000' }],
    ['EXCHANGE_ENV', { DATABASE_URL: 'x', PEER_GRPC_URL: 'peer:1', EXCHANGE_ENV: 'prod' }],
    ['LOG_LEVEL', { DATABASE_URL: 'x', PEER_GRPC_URL: 'peer:1', LOG_LEVEL: 'loud' }],
    ['OUTBOX_RETENTION_HOURS', { DATABASE_URL: 'x', PEER_GRPC_URL: 'peer:1', OUTBOX_RETENTION_HOURS: '-1' }],
    ['OUTBOX_RETENTION_HOURS', { DATABASE_URL: 'x', PEER_GRPC_URL: 'peer:1', OUTBOX_RETENTION_HOURS: '1.5' }],
    ['EVENTS_RETENTION_HOURS', { DATABASE_URL: 'x', PEER_GRPC_URL: 'peer:1', EVENTS_RETENTION_HOURS: '-1' }],
    ['EVENTS_RETENTION_HOURS', { DATABASE_URL: 'x', PEER_GRPC_URL: 'peer:1', EVENTS_RETENTION_HOURS: '8761' }],
    ['PEER_GRPC_URL', { DATABASE_URL: 'x', PEER_GRPC_URL: 'http://peer:1' }],
  ])('names %s when it is missing or invalid', (variable, env) => {
    expect(() => readConfig(Schema, env)).toThrow(ConfigError);
    expect(() => readConfig(Schema, env)).toThrow(variable);
  });
});
