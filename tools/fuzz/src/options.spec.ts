import { DEFAULTS, LONG, parseOptions, UsageError } from './options';

describe('parseOptions', () => {
  it('is bounded and seeded by default', () => {
    expect(parseOptions([])).toEqual({ ...DEFAULTS, durationSec: DEFAULTS.durationSec, maxRequests: DEFAULTS.maxRequests, target: null, trace: null });
  });

  it('runs longer with --long or --duration', () => {
    expect(parseOptions(['--long'])).toMatchObject(LONG);
    expect(parseOptions(['--duration', '600'])).toMatchObject({ durationSec: 600, maxRequests: LONG.maxRequests });
    expect(parseOptions(['--long', '--requests', '10'])).toMatchObject({ durationSec: LONG.durationSec, maxRequests: 10 });
  });

  it('reads the seed, concurrency, signers and a running exchange', () => {
    expect(parseOptions(['--seed', '7', '--concurrency', '2', '--signers', '4', '--url', 'http://h:1/', '--token', 't'])).toMatchObject({
      seed: 7,
      concurrency: 2,
      signers: 4,
      target: { url: 'http://h:1', token: 't' },
    });
  });

  it.each([
    [['--seed', 'x']],
    [['--concurrency', '0']],
    [['--url', 'http://h']],
    [['--bogus']],
  ])('refuses %j', (argv) => {
    expect(() => parseOptions(argv)).toThrow(UsageError);
  });
});
