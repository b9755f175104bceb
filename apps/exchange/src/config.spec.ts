import { readExchangeConfig } from './config';

describe('readExchangeConfig', () => {
  it('runs with nothing configured: port 8080, ./.data, sandbox, embedded services', () => {
    const config = readExchangeConfig({});
    expect(config).toMatchObject({ PORT: 8080, EXCHANGE_DATA_DIR: './.data', EXCHANGE_ENV: 'sandbox', LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.NATS_URL).toBeUndefined();
  });

  it('names the variable that is wrong', () => {
    expect(() => readExchangeConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readExchangeConfig({ EXCHANGE_ENV: 'prod' })).toThrow(/EXCHANGE_ENV/);
    expect(() => readExchangeConfig({ OPERATOR_TOKEN: 'short' })).toThrow(/OPERATOR_TOKEN/);
  });
});
