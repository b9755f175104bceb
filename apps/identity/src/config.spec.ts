import { ConfigError, readConfig } from '@exchange/platform';
import { IdentityConfigSchema } from './config';

describe('IdentityConfigSchema', () => {
  it('should apply the defaults around a DATABASE_URL', () => {
    expect(readConfig(IdentityConfigSchema, { DATABASE_URL: 'postgresql://db/identity' })).toEqual({
      GRPC_PORT: 50051,
      GRPC_HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://db/identity',
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'info',
      OUTBOX_RETENTION_HOURS: 24,
      EVENTS_RETENTION_HOURS: 168,
    });
  });

  it('should read every variable', () => {
    const config = readConfig(IdentityConfigSchema, {
      DATABASE_URL: 'postgresql://db/identity',
      GRPC_PORT: '6000',
      GRPC_HOST: '127.0.0.1',
      NATS_URL: 'nats://127.0.0.1:4222',
      REGISTRY_GRPC_URL: 'registry:50056',
      EXCHANGE_ENV: 'mainnet',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      GRPC_PORT: 6000,
      GRPC_HOST: '127.0.0.1',
      NATS_URL: 'nats://127.0.0.1:4222',
      REGISTRY_GRPC_URL: 'registry:50056',
      EXCHANGE_ENV: 'mainnet',
      LOG_LEVEL: 'debug',
    });
  });

  it.each([
    [{}, 'DATABASE_URL'],
    [{ DATABASE_URL: 'x', GRPC_PORT: 'abc' }, 'GRPC_PORT'],
    [{ DATABASE_URL: 'x', EXCHANGE_ENV: 'production' }, 'EXCHANGE_ENV'],
    [{ DATABASE_URL: 'x', LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('should fail fast naming the bad variable (%j)', (env, variable) => {
    try {
      readConfig(IdentityConfigSchema, env);
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variable).toBe(variable);
    }
  });
});
