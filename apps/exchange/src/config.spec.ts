import { readExchangeConfig } from './config';

describe('readExchangeConfig', () => {
  it('runs with nothing configured: port 8080, ./.data, sandbox, embedded services', () => {
    const config = readExchangeConfig({});
    expect(config).toMatchObject({ PORT: 8080, EXCHANGE_DATA_DIR: './.data', EXCHANGE_ENV: 'sandbox', LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.NATS_URL).toBeUndefined();
    expect(config.EXCHANGE_IN_PROCESS_CALLS).toBe(true);
  });

  it('turns in-process calls off with EXCHANGE_IN_PROCESS_CALLS=false, refuses anything but a boolean', () => {
    expect(readExchangeConfig({ EXCHANGE_IN_PROCESS_CALLS: 'false' }).EXCHANGE_IN_PROCESS_CALLS).toBe(false);
    expect(() => readExchangeConfig({ EXCHANGE_IN_PROCESS_CALLS: 'sometimes' })).toThrow(/EXCHANGE_IN_PROCESS_CALLS/);
  });

  it('names the variable that is wrong', () => {
    expect(() => readExchangeConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readExchangeConfig({ EXCHANGE_ENV: 'prod' })).toThrow(/EXCHANGE_ENV/);
    expect(() => readExchangeConfig({ OPERATOR_TOKEN: 'short' })).toThrow(/OPERATOR_TOKEN/);
    expect(() => readExchangeConfig({ SANDBOX_MERCHANT_PORT: '70000' })).toThrow(/SANDBOX_MERCHANT_PORT/);
  });

  it('refuses an OPERATOR_TOKEN under 16 characters with the fix, without echoing the token', () => {
    const read = () => readExchangeConfig({ OPERATOR_TOKEN: 'short-secret' });
    expect(read).toThrow(
      'Invalid configuration: OPERATOR_TOKEN is 12 characters long; set OPERATOR_TOKEN to at least 16 characters, ' +
        'e.g. OPERATOR_TOKEN=$(openssl rand -hex 16), or leave it unset to have one generated',
    );
    expect(read).not.toThrow(/short-secret/);
    expect(readExchangeConfig({ OPERATOR_TOKEN: 'x'.repeat(16) }).OPERATOR_TOKEN).toBe('x'.repeat(16));
  });
});
