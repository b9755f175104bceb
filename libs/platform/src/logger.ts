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
  return pino(options, opts.destination ?? bufferedStdout());
}

/**
 * stdout through a 4 KiB buffer: one write(2) per line cost the request path (one line per
 * request in the gateway, per RPC in the services) more than building the line. The buffer is
 * written every 100 ms, when full, and synchronously at exit (pino registers that flush), so a
 * line waits at most 100 ms; only a SIGKILL can lose the last ones.
 */
type Destination = ReturnType<typeof pino.destination>;
let sharedStdout: Destination | undefined;
// SonicBoom sets `destroyed` (its flush throws afterwards) but its types leave it out.
const isDestroyed = (stream: Destination) => (stream as unknown as { destroyed: boolean }).destroyed;

/** One buffer per process: every logger on fd 1 (all-in-one makes several) shares it, so lines keep their order. */
function bufferedStdout(): pino.DestinationStream {
  if (sharedStdout && !isDestroyed(sharedStdout)) return sharedStdout;
  const stream = pino.destination({ dest: 1, minLength: 4096, sync: false });
  const timer = setInterval(() => {
    if (isDestroyed(stream)) clearInterval(timer);
    else stream.flush();
  }, 100).unref();
  sharedStdout = stream;
  return stream;
}
