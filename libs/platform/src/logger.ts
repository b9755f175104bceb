import pino from 'pino';

export type Logger = pino.Logger;

/** Field names whose values never reach a log line, at the top level or nested up to two deep. */
export const REDACTED_KEYS = [
  'authorization',
  'token',
  'operator_token',
  'secret',
  'password',
  'private_key',
  'privateKey',
] as const;

const redactPaths = REDACTED_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

/** JSON-lines logger (pino) with secrets redacted; `destination` lets tests capture lines. */
export function createLogger(opts: { name: string; level?: string; destination?: pino.DestinationStream }): Logger {
  const options: pino.LoggerOptions = {
    name: opts.name,
    level: opts.level ?? 'info',
    redact: { paths: redactPaths, censor: '[REDACTED]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
