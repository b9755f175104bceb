import { ConfigError } from '@exchange/platform';
import { faultPointsFrom } from './config';
import { readMarketConfig } from './index';

const required = { DATABASE_URL: 'postgresql://db/market', IDENTITY_GRPC_URL: 'identity:50051', WALLET_LEDGER_GRPC_URL: 'wallet-ledger:50051' };

describe('readMarketConfig', () => {
  it('should apply the defaults around the required variables', () => {
    expect(readMarketConfig(required)).toEqual({
      ...required,
      GRPC_PORT: 50051,
      GRPC_HOST: '0.0.0.0',
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'info',
      OUTBOX_RETENTION_HOURS: 24,
      EVENTS_RETENTION_HOURS: 168,
      MARKET_FEE_BPS: 100,
      MARKET_AWARD_GRACE_MS: 86_400_000,
      MARKET_SWEEP_INTERVAL_MS: 5000,
      MARKET_RECOVERY_INTERVAL_MS: 2000,
      MARKET_DISPUTE_WINDOW_DAYS: 7,
      AGENT_CACHE_TTL_MS: 1000,
      MARKET_RESALE_MAX_DEPTH: 3,
      MARKET_DB_POOL_MAX: 10,
      MARKET_FAULT_INJECTION: '',
    });
  });

  it('should refuse a bad value naming the variable', () => {
    expect(() => readMarketConfig({ ...required, MARKET_FEE_BPS: '10001' })).toThrow(ConfigError);
    expect(() => readMarketConfig({ ...required, MARKET_FAULT_INJECTION: 'award:before_hold' })).toThrow(/MARKET_FAULT_INJECTION/);
    expect(() => readMarketConfig({ DATABASE_URL: 'x', IDENTITY_GRPC_URL: 'identity:1' })).toThrow(/WALLET_LEDGER_GRPC_URL/);
    expect(() => readMarketConfig({ ...required, TELEMETRY_GRPC_URL: 'http://telemetry' })).toThrow(/TELEMETRY_GRPC_URL/);
  });

  it('should read the optional telemetry address (empty = absent)', () => {
    expect(readMarketConfig({ ...required, TELEMETRY_GRPC_URL: 'telemetry:50051' }).TELEMETRY_GRPC_URL).toBe('telemetry:50051');
    expect(readMarketConfig({ ...required, TELEMETRY_GRPC_URL: '' })).not.toHaveProperty('TELEMETRY_GRPC_URL');
  });

  it('should honour fault points only in sandbox', () => {
    const config = readMarketConfig({ ...required, MARKET_FAULT_INJECTION: 'award:after_hold, settle:after_consume' });
    expect([...faultPointsFrom(config)]).toEqual(['award:after_hold', 'settle:after_consume']);
    expect(faultPointsFrom({ ...config, EXCHANGE_ENV: 'mainnet' }).size).toBe(0);
  });
});
