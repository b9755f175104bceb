import Type from 'typebox';
import { ConfigError, readConfig } from './config';

const schema = Type.Object({
  GRPC_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 50051 }),
  RATIO: Type.Number({ default: 0.5 }),
  READ_ONLY: Type.Boolean({ default: false }),
  DATABASE_URL: Type.String({ minLength: 1 }),
  EXCHANGE_ENV: Type.Union([Type.Literal('sandbox'), Type.Literal('mainnet')], { default: 'sandbox' }),
  LOG_LEVEL: Type.Enum(['debug', 'info', 'warn'], { default: 'info' }),
  NATS_URL: Type.Optional(Type.String()),
});

const base = { DATABASE_URL: 'postgres://x' };

function errorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    readConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('readConfig', () => {
  it('should apply defaults and leave optional variables out', () => {
    expect(readConfig(schema, base)).toEqual({
      GRPC_PORT: 50051,
      RATIO: 0.5,
      READ_ONLY: false,
      DATABASE_URL: 'postgres://x',
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'info',
    });
  });

  it('should treat an empty value as unset', () => {
    expect(readConfig(schema, { ...base, GRPC_PORT: '' }).GRPC_PORT).toBe(50051);
  });

  it('should coerce integers, numbers, booleans and keep strings', () => {
    const config = readConfig(schema, {
      ...base,
      GRPC_PORT: '0',
      RATIO: '1e-3',
      READ_ONLY: 'TRUE',
      EXCHANGE_ENV: 'mainnet',
      LOG_LEVEL: 'warn',
      NATS_URL: 'nats://127.0.0.1:4222',
    });
    expect(config).toEqual({
      GRPC_PORT: 0,
      RATIO: 0.001,
      READ_ONLY: true,
      DATABASE_URL: 'postgres://x',
      EXCHANGE_ENV: 'mainnet',
      LOG_LEVEL: 'warn',
      NATS_URL: 'nats://127.0.0.1:4222',
    });
  });

  it.each([
    ['1', true],
    ['yes', true],
    ['on', true],
    ['false', false],
    ['0', false],
    ['no', false],
    ['OFF', false],
  ])('should read boolean %j as %p', (raw, expected) => {
    expect(readConfig(schema, { ...base, READ_ONLY: raw }).READ_ONLY).toBe(expected);
  });

  it('should ignore unknown variables', () => {
    const config = readConfig(schema, { ...base, SOMETHING_ELSE: 'x' }) as Record<string, unknown>;
    expect(config).not.toHaveProperty('SOMETHING_ELSE');
  });

  it('should name a missing required variable', () => {
    const err = errorOf({});
    expect(err.variable).toBe('DATABASE_URL');
    expect(err.message).toBe('Invalid configuration: DATABASE_URL is required but not set');
  });

  it('should reject a non-integer with the documented message', () => {
    const err = errorOf({ ...base, GRPC_PORT: 'abc' });
    expect(err.variable).toBe('GRPC_PORT');
    expect(err.message).toBe('Invalid configuration: GRPC_PORT must be an integer (got "abc")');
  });

  it.each(['1.5', '1e3', ' 1', '0x10', '99999999999999999999'])('should reject integer %j', (raw) => {
    expect(errorOf({ ...base, GRPC_PORT: raw }).variable).toBe('GRPC_PORT');
  });

  it('should enforce schema bounds after coercion', () => {
    expect(errorOf({ ...base, GRPC_PORT: '70000' }).message).toBe(
      'Invalid configuration: GRPC_PORT must be >= 0 and <= 65535 (got "70000")',
    );
  });

  it.each(['abc', 'NaN', 'Infinity', ' 1'])('should reject number %j', (raw) => {
    expect(errorOf({ ...base, RATIO: raw }).message).toMatch(/^Invalid configuration: RATIO must be a number/);
  });

  it('should reject a boolean it cannot read', () => {
    expect(errorOf({ ...base, READ_ONLY: 'maybe' }).message).toMatch(/^Invalid configuration: READ_ONLY must be a boolean/);
  });

  it('should list the allowed values of a literal union and of an enum', () => {
    expect(errorOf({ ...base, EXCHANGE_ENV: 'prod' }).message).toBe(
      'Invalid configuration: EXCHANGE_ENV must be one of sandbox, mainnet (got "prod")',
    );
    expect(errorOf({ ...base, LOG_LEVEL: 'trace' }).message).toBe(
      'Invalid configuration: LOG_LEVEL must be one of debug, info, warn (got "trace")',
    );
  });

  it('should read process.env when no env is given', () => {
    const small = Type.Object({ PLATFORM_CONFIG_SPEC_VAR: Type.Integer() });
    process.env.PLATFORM_CONFIG_SPEC_VAR = '7';
    try {
      expect(readConfig(small)).toEqual({ PLATFORM_CONFIG_SPEC_VAR: 7 });
    } finally {
      delete process.env.PLATFORM_CONFIG_SPEC_VAR;
    }
  });
});
