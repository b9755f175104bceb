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

const SECRET_KEYS: ReadonlySet<string> = new Set(REDACTED_KEYS);
const CENSOR = '[REDACTED]';
/** Levels below the logged object that are searched: `key`, `*.key` and `*.*.key`. */
const NESTED_LEVELS = 2;

/**
 * `value` with every secret field (REDACTED_KEYS, up to two levels down) censored; the same object
 * when it holds none, which is nearly always. Copies only the objects on the way to a secret.
 * pino's own `redact` with wildcard paths cost ~5% of a service's CPU: it runs on every line.
 */
function redactSecrets<T>(value: T, level = 0): T {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || value instanceof Date) return value;
  let censored: Map<string, unknown> | null = null;
  const source = value as Record<string, unknown>;
  for (const key in source) {
    if (!Object.prototype.hasOwnProperty.call(source, key)) continue;
    const field = source[key];
    const safe = SECRET_KEYS.has(key) ? CENSOR : level < NESTED_LEVELS ? redactSecrets(field, level + 1) : field;
    if (safe !== field) (censored ??= new Map()).set(key, safe);
  }
  return censored === null ? value : (copyWith(source, censored) as T);
}

/**
 * A copy of `source` with the `censored` fields replaced: an array stays an array, an Error (or
 * any class) keeps its prototype and own fields. The replaced fields are redefined, not assigned:
 * a read-only, getter-only or frozen field must be censored, not throw from a log call.
 */
function copyWith(source: Record<string, unknown>, censored: Map<string, unknown>): Record<string, unknown> {
  if (Array.isArray(source)) {
    const copy = [...source] as unknown as Record<string, unknown>;
    for (const [key, safe] of censored) copy[key] = safe;
    return copy;
  }
  const descriptors = Object.getOwnPropertyDescriptors(source);
  for (const [key, safe] of censored) descriptors[key] = { value: safe, enumerable: true, writable: true, configurable: true };
  return Object.create(Object.getPrototypeOf(source), descriptors);
}

/**
 * JSON-lines logger (pino) with secrets redacted; `destination` lets tests capture lines. Reach:
 * the logged object and a child's bindings to two levels below them; not `%j`/`%o` format
 * arguments (pino's top-level paths only: log objects, not format strings).
 */
export function createLogger(opts: { name: string; level?: string; destination?: pino.DestinationStream }): Logger {
  const options: pino.LoggerOptions = {
    name: opts.name,
    level: opts.level ?? 'info',
    // Top-level paths only: pino checks those per key at no cost; the nested reach is
    // redactSecrets' (pino's wildcard paths ran on every line).
    redact: { paths: [...REDACTED_KEYS], censor: CENSOR },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: redactSecrets },
  };
  const logger = pino(options, opts.destination ?? bufferedStdout());
  // Bindings bypass formatters.log (pino resets the bindings formatter for children): censored
  // once per child here; children inherit this method.
  const child = logger.child;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redactSecrets(bindings), childOptions);
  } as typeof logger.child;
  return logger;
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
