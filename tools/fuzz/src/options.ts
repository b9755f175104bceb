// Command line of `npm run fuzz`. Bounded by default (CI: the whole run within 3 minutes on a
// 2-core machine), longer with --long or --duration.
import { parseArgs } from 'node:util';

export interface Options {
  seed: number;
  /** Wall time of the fuzzing phase (boot, setup and final checks come on top). */
  durationSec: number;
  maxRequests: number;
  concurrency: number;
  signers: number;
  /** Fuzz an exchange that is already running instead of booting one. */
  target: { url: string; token: string } | null;
  examples: number;
  /** Write every request and its outcome to this file (JSON lines). */
  trace: string | null;
}

export const DEFAULTS = { seed: 20261121, durationSec: 100, maxRequests: 6000, concurrency: 4, signers: 8, examples: 3 };
export const LONG = { durationSec: 900, maxRequests: 200_000 };

export class UsageError extends Error {}

export const USAGE = `usage: npm run fuzz -- [--seed N] [--long | --duration SECONDS] [--requests N] [--concurrency N]
                     [--signers N] [--url URL --token OPERATOR_TOKEN] [--examples N] [--trace FILE]
  default: boots the exchange (apps/exchange) on a fresh data directory, ${DEFAULTS.durationSec} s or ${DEFAULTS.maxRequests} requests
  --long: ${LONG.durationSec} s or ${LONG.maxRequests} requests`;

function int(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}`);
  return n;
}

export function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        seed: { type: 'string' },
        long: { type: 'boolean' },
        duration: { type: 'string' },
        requests: { type: 'string' },
        concurrency: { type: 'string' },
        signers: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        examples: { type: 'string' },
        trace: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if ((values.url === undefined) !== (values.token === undefined)) throw new UsageError('--url and --token go together');
  const long = values.long === true;
  return {
    seed: int('seed', values.seed, 0, 2 ** 31 - 1) ?? DEFAULTS.seed,
    durationSec: int('duration', values.duration, 1, 86_400) ?? (long ? LONG.durationSec : DEFAULTS.durationSec),
    maxRequests: int('requests', values.requests, 1, 10_000_000) ?? (long ? LONG.maxRequests : values.duration ? LONG.maxRequests : DEFAULTS.maxRequests),
    concurrency: int('concurrency', values.concurrency, 1, 64) ?? DEFAULTS.concurrency,
    signers: int('signers', values.signers, 3, 50) ?? DEFAULTS.signers,
    target: values.url !== undefined && values.token !== undefined ? { url: values.url.replace(/\/+$/, ''), token: values.token } : null,
    examples: int('examples', values.examples, 1, 100) ?? DEFAULTS.examples,
    trace: values.trace ?? null,
  };
}
