import {
  localUrl,
  merchantDirectory,
  orderWebhookUrl,
  readMerchantConfig,
  runsSandboxMerchant,
  sandboxMerchantEnv,
  sandboxMerchantUrl,
} from './sandbox-merchant';

const defaults = { port: 0, webhookUrl: 'http://127.0.0.1:8080/v1/commerce/ucp/webhooks/orders', logLevel: 'warn' };

describe('runsSandboxMerchant', () => {
  it('should run the merchant in sandbox only, never on mainnet', () => {
    expect(runsSandboxMerchant('sandbox')).toBe(true);
    expect(runsSandboxMerchant('mainnet')).toBe(false);
  });
});

describe('merchantDirectory', () => {
  it('should map sandbox-merchant.local to the URL as the JSON commerce reads', () => {
    expect(JSON.parse(merchantDirectory('http://127.0.0.1:8290'))).toEqual({ 'sandbox-merchant.local': 'http://127.0.0.1:8290' });
  });
});

describe('orderWebhookUrl / localUrl', () => {
  it('should point at the gateway webhook receiver, whatever the trailing slash', () => {
    expect(orderWebhookUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/v1/commerce/ucp/webhooks/orders');
  });

  it('should reach a wildcard bind on loopback and bracket IPv6 hosts', () => {
    expect(localUrl('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080');
    expect(localUrl('::', 8080)).toBe('http://127.0.0.1:8080');
    expect(localUrl('::1', 9)).toBe('http://[::1]:9');
    expect(localUrl('10.0.0.5', 80)).toBe('http://10.0.0.5:80');
  });
});

describe('sandboxMerchantEnv', () => {
  it('should bind loopback on the default port, post webhooks to the gateway and run in sandbox mode', () => {
    const config = readMerchantConfig(sandboxMerchantEnv({}, { ...defaults, port: 8299 }));
    expect(config).toMatchObject({ PORT: 8299, HOST: '127.0.0.1', WEBHOOK_URL: defaults.webhookUrl, LOG_LEVEL: 'warn', EXCHANGE_ENV: 'sandbox' });
    expect(config.PUBLIC_URL).toBeUndefined();
  });

  it("should not take the launcher's own PORT, HOST, BODY_LIMIT_BYTES or EXCHANGE_ENV", () => {
    const env = sandboxMerchantEnv({ PORT: '8080', HOST: '0.0.0.0', BODY_LIMIT_BYTES: '4096', EXCHANGE_ENV: 'mainnet', PUBLIC_URL: 'https://x' }, defaults);
    expect(env).toMatchObject({ PORT: '0', HOST: '127.0.0.1', BODY_LIMIT_BYTES: undefined, EXCHANGE_ENV: 'sandbox', PUBLIC_URL: undefined });
    // Every key is present, so a child process started with { ...process.env, ...env } drops inherited ones.
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['PORT', 'BODY_LIMIT_BYTES', 'CATALOG_DIR', 'WEBHOOK_URL']));
  });

  it('should take SANDBOX_MERCHANT_<KEY> over the defaults, and MERCHANT_* keys as they are', () => {
    const env = sandboxMerchantEnv(
      {
        SANDBOX_MERCHANT_PORT: '8290',
        SANDBOX_MERCHANT_PUBLIC_URL: 'http://merchant.test:8290/',
        SANDBOX_MERCHANT_ESCALATION_THRESHOLD: '100',
        SANDBOX_MERCHANT_WEBHOOK_URL: 'http://elsewhere/hook',
        MERCHANT_KEY_ID: 'kid-1',
      },
      defaults,
    );
    expect(readMerchantConfig(env)).toMatchObject({ PORT: 8290, ESCALATION_THRESHOLD: 100, WEBHOOK_URL: 'http://elsewhere/hook', MERCHANT_KEY_ID: 'kid-1' });
    expect(sandboxMerchantUrl(env)).toBe('http://merchant.test:8290');
  });

  it('should give the loopback URL of the chosen port when no PUBLIC_URL is set', () => {
    expect(sandboxMerchantUrl(sandboxMerchantEnv({}, { ...defaults, port: 41234 }))).toBe('http://127.0.0.1:41234');
  });
});

describe('readMerchantConfig', () => {
  it('should name a bad setting by the SANDBOX_MERCHANT_ variable the operator set', () => {
    expect(() => readMerchantConfig(sandboxMerchantEnv({ SANDBOX_MERCHANT_CURRENCY: 'dollars' }, defaults))).toThrow(/^Invalid configuration: SANDBOX_MERCHANT_CURRENCY /);
  });
});
