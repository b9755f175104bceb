import { readConfig } from '@exchange/platform';
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
  OPERATOR_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  EXCHANGE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 40 })),
  LOG_LEVEL: Type.String({ default: 'info' }),
});

export type ExchangeConfig = ReturnType<typeof readExchangeConfig>;

export function readExchangeConfig(env: Record<string, string | undefined> = process.env) {
  return readConfig(exchangeConfigSchema, env);
}
