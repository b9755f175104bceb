import { DEFAULT_EXCHANGE_URL, DEFAULT_TIMEOUT_MS, resolveOptions, UsageError } from './options';

describe('resolveOptions', () => {
  it('defaults to the gateway on 127.0.0.1:8080 with OPERATOR_TOKEN', () => {
    expect(resolveOptions([], { OPERATOR_TOKEN: 'tok' })).toEqual({
      source: { kind: 'gateway', url: DEFAULT_EXCHANGE_URL, token: 'tok' },
      json: false,
      timeoutMs: DEFAULT_TIMEOUT_MS,
    });
  });

  it('takes EXCHANGE_URL, and flags over the environment', () => {
    expect(resolveOptions([], { EXCHANGE_URL: 'https://x.test/', OPERATOR_TOKEN: 'a' })).toMatchObject({ source: { url: 'https://x.test', token: 'a' } });
    expect(resolveOptions(['--url', 'http://y.test:81', '--token', 'b', '--json'], { EXCHANGE_URL: 'https://x.test', OPERATOR_TOKEN: 'a' })).toEqual({
      source: { kind: 'gateway', url: 'http://y.test:81', token: 'b' },
      json: true,
      timeoutMs: DEFAULT_TIMEOUT_MS,
    });
  });

  it('goes straight to gRPC with --grpc or WALLET_LEDGER_GRPC_URL (no token needed)', () => {
    expect(resolveOptions(['--grpc', '127.0.0.1:50052', '--timeout', '500'], {})).toEqual({
      source: { kind: 'grpc', address: '127.0.0.1:50052' },
      json: false,
      timeoutMs: 500,
    });
    expect(resolveOptions([], { WALLET_LEDGER_GRPC_URL: 'wallet-ledger:50051' })).toMatchObject({ source: { kind: 'grpc', address: 'wallet-ledger:50051' } });
  });

  it('lets an explicit --url win over WALLET_LEDGER_GRPC_URL', () => {
    expect(resolveOptions(['--url', 'http://g.test', '--token', 't'], { WALLET_LEDGER_GRPC_URL: 'w:1' })).toMatchObject({ source: { kind: 'gateway' } });
  });

  it('answers help', () => {
    expect(resolveOptions(['--help'], {})).toBe('help');
  });

  it.each([
    [['--url', 'http://a', '--grpc', 'b:1'], {}, 'either --url or --grpc'],
    [[], {}, 'operator token'],
    [['--grpc', 'http://b:1'], {}, 'host:port'],
    [['--grpc', 'b'], {}, 'host:port'],
    [['--url', 'ftp://a', '--token', 't'], {}, 'http(s) URL'],
    [['--timeout', '0', '--grpc', 'b:1'], {}, '--timeout'],
    [['--nope'], {}, 'nope'],
    [['positional'], {}, 'positional'],
  ])('refuses %j', (argv, env, message) => {
    expect(() => resolveOptions(argv, env)).toThrow(UsageError);
    expect(() => resolveOptions(argv, env)).toThrow(message);
  });
});
