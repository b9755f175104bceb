import { ConfigError } from '@exchange/platform';
import { groupCommitFrom, killSwitchesFrom } from './config';
import { readWalletLedgerConfig } from './index';

const KEY = Buffer.alloc(32, 1).toString('base64');
const required = { DATABASE_URL: 'postgresql://db/wallet', IDENTITY_GRPC_URL: 'identity:50051', EXCHANGE_SIGNING_KEY: KEY };

describe('readWalletLedgerConfig', () => {
  it('should apply the defaults around the required variables', () => {
    expect(readWalletLedgerConfig(required)).toEqual({
      ...required,
      GRPC_PORT: 50051,
      GRPC_HOST: '0.0.0.0',
      EXCHANGE_ENV: 'sandbox',
      LOG_LEVEL: 'info',
      OUTBOX_RETENTION_HOURS: 24,
      EVENTS_RETENTION_HOURS: 168,
      WALLET_KILL_SWITCHES: '',
      WALLET_READ_ONLY: false,
      HOLD_SWEEP_INTERVAL_MS: 1000,
      PAYOUT_PROCESSOR_INTERVAL_MS: 1000,
      AGENT_CACHE_TTL_MS: 1000,
      INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT: '1000000',
      WALLET_DB_POOL_MAX: 8,
      WALLET_GROUP_COMMIT: true,
      WALLET_GROUP_COMMIT_MAX_BATCH: 32,
      WALLET_GROUP_COMMIT_WINDOW_US: 0,
      WALLET_GROUP_COMMIT_IN_FLIGHT: 2,
    });
  });

  it('should read every variable', () => {
    const config = readWalletLedgerConfig({
      ...required,
      NATS_URL: 'nats://127.0.0.1:4222',
      EXCHANGE_ENV: 'mainnet',
      WALLET_KILL_SWITCHES: 'settlements, withdrawals',
      WALLET_READ_ONLY: 'true',
      HOLD_SWEEP_INTERVAL_MS: '0',
      AGENT_CACHE_TTL_MS: '250',
      INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT: '2500000.5',
      WALLET_DB_POOL_MAX: '12',
      WALLET_GROUP_COMMIT_MAX_BATCH: '64',
      WALLET_GROUP_COMMIT_WINDOW_US: '500',
      WALLET_GROUP_COMMIT_IN_FLIGHT: '3',
    });
    expect(config).toMatchObject({ EXCHANGE_ENV: 'mainnet', WALLET_READ_ONLY: true, HOLD_SWEEP_INTERVAL_MS: 0, AGENT_CACHE_TTL_MS: 250, WALLET_DB_POOL_MAX: 12 });
    expect(groupCommitFrom(config)).toEqual({ maxBatch: 64, windowUs: 500, maxInFlight: 3 });
    expect(killSwitchesFrom(config)).toEqual(['withdrawals', 'settlements']);
  });

  it('should turn group commit off with WALLET_GROUP_COMMIT=false', () => {
    expect(groupCommitFrom(readWalletLedgerConfig({ ...required, WALLET_GROUP_COMMIT: 'false' }))).toBeUndefined();
    expect(groupCommitFrom(readWalletLedgerConfig(required))).toEqual({ maxBatch: 32, windowUs: 0, maxInFlight: 2 });
  });

  it.each([
    [{}, 'DATABASE_URL'],
    [{ ...required, IDENTITY_GRPC_URL: 'http://identity' }, 'IDENTITY_GRPC_URL'],
    [{ ...required, EXCHANGE_SIGNING_KEY: 'short' }, 'EXCHANGE_SIGNING_KEY'],
    [{ ...required, WALLET_KILL_SWITCHES: 'faucet,everything' }, 'WALLET_KILL_SWITCHES'],
    [{ ...required, WALLET_READ_ONLY: 'maybe' }, 'WALLET_READ_ONLY'],
    [{ ...required, INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT: '-5' }, 'INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT'],
    [{ ...required, WALLET_DB_POOL_MAX: '0' }, 'WALLET_DB_POOL_MAX'],
    [{ ...required, WALLET_GROUP_COMMIT: 'sometimes' }, 'WALLET_GROUP_COMMIT'],
    [{ ...required, WALLET_GROUP_COMMIT_MAX_BATCH: '65' }, 'WALLET_GROUP_COMMIT_MAX_BATCH'],
    [{ ...required, WALLET_GROUP_COMMIT_MAX_BATCH: '0' }, 'WALLET_GROUP_COMMIT_MAX_BATCH'],
    [{ ...required, WALLET_GROUP_COMMIT_WINDOW_US: '-1' }, 'WALLET_GROUP_COMMIT_WINDOW_US'],
    [{ ...required, WALLET_GROUP_COMMIT_IN_FLIGHT: '0' }, 'WALLET_GROUP_COMMIT_IN_FLIGHT'],
  ])('should fail fast naming the bad variable (%j)', (env, variable) => {
    try {
      readWalletLedgerConfig(env);
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variable).toBe(variable);
    }
  });
});
