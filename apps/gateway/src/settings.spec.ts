import { ConfigError } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { readGatewayConfig } from './config';
import { rateLimitsFrom, rateLimitTable, resolveExchangePublicKey, resolveOperatorTokens } from './settings';

const base = { IDENTITY_GRPC_URL: '127.0.0.1:1', WALLET_LEDGER_GRPC_URL: '127.0.0.1:2', MARKET_GRPC_URL: '127.0.0.1:3', REGISTRY_GRPC_URL: '127.0.0.1:4', COMMERCE_GRPC_URL: '127.0.0.1:5', WORKFLOWS_GRPC_URL: '127.0.0.1:6', TELEMETRY_GRPC_URL: '127.0.0.1:7' };
const SEED = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('base64');

describe('readGatewayConfig', () => {
  it('should apply the documented defaults', () => {
    expect(readGatewayConfig(base)).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      EXCHANGE_ENV: 'sandbox',
      BODY_LIMIT_BYTES: 1024 * 1024,
      RATE_LIMIT_ANONYMOUS: 300,
      RATE_LIMIT_OPERATOR: 6000,
      RATE_LIMIT_SANDBOX_UNVERIFIED: 120,
      RATE_LIMIT_MAINNET_BASIC: 600,
      RATE_LIMIT_MAINNET_ATTESTED: 1200,
      RATE_LIMIT_MAINNET_VERIFIED: 3000,
      RATE_LIMIT_MAINNET_INSTITUTIONAL: 10000,
      LOG_LEVEL: 'info',
      VERSION: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it('should fail fast naming the variable', () => {
    expect(() => readGatewayConfig({})).toThrow(/IDENTITY_GRPC_URL/);
    expect(() => readGatewayConfig({ IDENTITY_GRPC_URL: '127.0.0.1:1' })).toThrow(/WALLET_LEDGER_GRPC_URL/);
    expect(() => readGatewayConfig({ IDENTITY_GRPC_URL: '127.0.0.1:1', WALLET_LEDGER_GRPC_URL: '127.0.0.1:2' })).toThrow(/MARKET_GRPC_URL/);
    const { COMMERCE_GRPC_URL: _commerce, ...withoutCommerce } = base;
    expect(() => readGatewayConfig(withoutCommerce)).toThrow(/COMMERCE_GRPC_URL/);
    expect(() => readGatewayConfig({ ...base, PUBLIC_BASE_URL: 'exchange.example' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => readGatewayConfig({ ...base, PORT: 'abc' })).toThrow(/PORT must be an integer/);
    expect(() => readGatewayConfig({ ...base, EXCHANGE_ENV: 'prod' })).toThrow(ConfigError);
  });
});

describe('resolveOperatorTokens', () => {
  it('should use OPERATOR_TOKEN as "default" in sandbox, or the caller-generated token', () => {
    expect(resolveOperatorTokens(readGatewayConfig({ ...base, OPERATOR_TOKEN: 'sandbox-token-0123456789' }))).toEqual([
      { name: 'default', token: 'sandbox-token-0123456789' },
    ]);
    expect(resolveOperatorTokens(readGatewayConfig(base), 'generated-token-0123456789')).toEqual([
      { name: 'default', token: 'generated-token-0123456789' },
    ]);
  });

  it('should require OPERATOR_TOKENS in mainnet and ignore OPERATOR_TOKEN there', () => {
    expect(() => resolveOperatorTokens(readGatewayConfig({ ...base, EXCHANGE_ENV: 'mainnet', OPERATOR_TOKEN: 'sandbox-token-0123456789' }))).toThrow(
      /OPERATOR_TOKENS is required when EXCHANGE_ENV=mainnet/,
    );
    expect(
      resolveOperatorTokens(readGatewayConfig({ ...base, EXCHANGE_ENV: 'mainnet', OPERATOR_TOKENS: 'ann=ann-token-0123456789' })),
    ).toEqual([{ name: 'ann', token: 'ann-token-0123456789' }]);
  });

  it('should refuse no token at all and a malformed OPERATOR_TOKENS', () => {
    expect(() => resolveOperatorTokens(readGatewayConfig(base))).toThrow(ConfigError);
    expect(() => resolveOperatorTokens(readGatewayConfig({ ...base, OPERATOR_TOKENS: 'ann=short' }))).toThrow(/OPERATOR_TOKENS/);
  });
});

describe('resolveExchangePublicKey', () => {
  it('should derive the public key from EXCHANGE_SIGNING_KEY', () => {
    expect(resolveExchangePublicKey(readGatewayConfig({ ...base, EXCHANGE_SIGNING_KEY: SEED }))).toBe('ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=');
  });

  it('should accept EXCHANGE_PUBLIC_KEY alone, give null without either, and refuse wrong lengths', () => {
    expect(resolveExchangePublicKey(readGatewayConfig({ ...base, EXCHANGE_PUBLIC_KEY: 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=' }))).toBe(
      'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=',
    );
    expect(resolveExchangePublicKey(readGatewayConfig(base))).toBeNull();
    expect(() => resolveExchangePublicKey(readGatewayConfig({ ...base, EXCHANGE_SIGNING_KEY: 'AAAA' }))).toThrow(/EXCHANGE_SIGNING_KEY/);
    expect(() => resolveExchangePublicKey(readGatewayConfig({ ...base, EXCHANGE_PUBLIC_KEY: 'not base64!' }))).toThrow(/EXCHANGE_PUBLIC_KEY/);
  });
});

describe('rate limits', () => {
  it('should map every identity level to its configured limit and render the table', () => {
    const limits = rateLimitsFrom(readGatewayConfig({ ...base, RATE_LIMIT_MAINNET_VERIFIED: '7' }));
    expect(limits.byLevel[identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_VERIFIED]).toBe(7);
    expect(limits.byLevel[identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED]).toBe(120);
    const table = rateLimitTable(limits);
    expect(table).toContain('| Caller | Requests per minute |');
    expect(table).toContain('| MAINNET_VERIFIED | 7 |');
    expect(table).toContain('| no credentials (per IP) | 300 |');
    expect(table).toContain('| failed authentications (per IP) | 30 |');
    expect(rateLimitsFrom(readGatewayConfig({ ...base, RATE_LIMIT_AUTH_FAILURES: '5' })).authFailures).toBe(5);
  });
});
