import { ConfigError, readConfig } from '@exchange/platform';
import { serviceConfigBase } from '@exchange/service-host';
import Type from 'typebox';

// The all-in-one launcher's settings. Everything is optional: with nothing set the exchange
// runs on embedded PostgreSQL under EXCHANGE_DATA_DIR, in-process events, sandbox mode.
export const exchangeConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  EXCHANGE_DATA_DIR: Type.String({ default: './.data' }),
  EXCHANGE_ENV: Type.Union([Type.Literal('sandbox'), Type.Literal('mainnet')], { default: 'sandbox' }),
  DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  EXCHANGE_DB_PREFIX: Type.String({ default: 'exchange_', pattern: '^[a-z_][a-z0-9_]*$' }),
  EMBEDDED_PG_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  NATS_URL: Type.Optional(Type.String({ minLength: 1 })),
  REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  OPERATOR_TOKEN: Type.Optional(Type.String({ minLength: 16 })), // see readExchangeConfig
  EXCHANGE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 40 })),
  LOG_LEVEL: Type.String({ default: 'info' }),
  // Services of this one process call each other's unary methods directly instead of through
  // gRPC on loopback (libs/platform grpc/in-process.ts): same handlers, same answers, without
  // HTTP/2. false: every call goes through gRPC, as in distributed mode.
  EXCHANGE_IN_PROCESS_CALLS: Type.Boolean({ default: true }),
  // Sandbox merchant (sandbox only): its port, default a free loopback port. Its other settings
  // are SANDBOX_MERCHANT_<KEY> (src/sandbox-merchant.ts), checked when it starts.
  SANDBOX_MERCHANT_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  // The bus this launcher makes for all its services keeps events as long as each service expects.
  EVENTS_RETENTION_HOURS: serviceConfigBase().EVENTS_RETENTION_HOURS,
});

export type ExchangeConfig = ReturnType<typeof readExchangeConfig>;

export const OPERATOR_TOKEN_MIN_LENGTH = 16;

export function readExchangeConfig(env: Record<string, string | undefined> = process.env) {
  const token = env.OPERATOR_TOKEN;
  // Checked first so the message carries the fix and never echoes the (secret) token.
  if (token !== undefined && token !== '' && token.length < OPERATOR_TOKEN_MIN_LENGTH) {
    throw new ConfigError(
      'OPERATOR_TOKEN',
      `is ${token.length} characters long; set OPERATOR_TOKEN to at least ${OPERATOR_TOKEN_MIN_LENGTH} characters, ` +
        'e.g. OPERATOR_TOKEN=$(openssl rand -hex 16), or leave it unset to have one generated',
    );
  }
  return readConfig(exchangeConfigSchema, env);
}
