import { createLogger, type Logger } from '@exchange/platform';
import { Writable } from 'node:stream';

/** A logger at info whose lines are kept, parsed, in `lines` (for assertions on what is logged). */
export function captureLogs(name = 'test'): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { lines, logger: createLogger({ name, level: 'info', destination }) };
}
