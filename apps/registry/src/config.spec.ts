import { ConfigError } from '@exchange/platform';
import { readRegistryConfig } from './index';

const KEY = `${'A'.repeat(43)}=`;
const required = {
  DATABASE_URL: 'postgresql://db/registry',
  EXCHANGE_SIGNING_KEY: KEY,
  IDENTITY_GRPC_URL: 'identity:50051',
  MARKET_GRPC_URL: 'market:50051',
  WALLET_LEDGER_GRPC_URL: 'wallet-ledger:50051',
};

describe('readRegistryConfig', () => {
  it('applies the defaults around the required variables', () => {
    expect(readRegistryConfig(required)).toEqual({
      ...required,
      GRPC_PORT: 50051,
      GRPC_HOST: '0.0.0.0',
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'info',
      OUTBOX_RETENTION_HOURS: 24,
      EVENTS_RETENTION_HOURS: 168,
      ARTIFACT_MAX_BYTES: 26_214_400,
      AGENT_CACHE_TTL_MS: 1000,
      REGISTRY_DB_POOL_MAX: 10,
    });
  });

  it('refuses a bad value naming the variable', () => {
    expect(() => readRegistryConfig({ ...required, ARTIFACT_STORE_URL: 'http://x' })).toThrow(ConfigError);
    expect(() => readRegistryConfig({ ...required, ARTIFACT_MAX_BYTES: '0' })).toThrow(/ARTIFACT_MAX_BYTES/);
    expect(() => readRegistryConfig({ ...required, EXCHANGE_SIGNING_KEY: 'short' })).toThrow(/EXCHANGE_SIGNING_KEY/);
    const { MARKET_GRPC_URL: _m, ...noMarket } = required;
    expect(() => readRegistryConfig(noMarket)).toThrow(/MARKET_GRPC_URL/);
  });
});
