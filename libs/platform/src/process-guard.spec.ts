import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { guardProcess } from './process-guard';

function captured() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'guard-spec', destination }) };
}

describe('guardProcess', () => {
  it('should log an unhandled rejection and keep the process running', () => {
    const { lines, logger } = captured();
    const target = new EventEmitter();
    const fatal = jest.fn();
    guardProcess(logger, { target: target as unknown as NodeJS.Process, onFatal: fatal });
    target.emit('unhandledRejection', new Error('stray'));
    expect(fatal).not.toHaveBeenCalled();
    expect(lines).toEqual([expect.objectContaining({ level: 'error', msg: 'unhandled promise rejection (kept serving)' })]);
  });

  it('should log an uncaught exception as fatal and hand it to onFatal', () => {
    const { lines, logger } = captured();
    const target = new EventEmitter();
    const fatal = jest.fn();
    guardProcess(logger, { target: target as unknown as NodeJS.Process, onFatal: fatal });
    const err = new Error('broken');
    target.emit('uncaughtException', err);
    expect(fatal).toHaveBeenCalledWith(err);
    expect(lines[0]).toMatchObject({ level: 'fatal', msg: 'uncaught exception' });
  });

  it('should remove its handlers when asked', () => {
    const { logger } = captured();
    const target = new EventEmitter();
    const remove = guardProcess(logger, { target: target as unknown as NodeJS.Process, onFatal: jest.fn() });
    expect(target.listenerCount('unhandledRejection')).toBe(1);
    remove();
    expect(target.listenerCount('unhandledRejection')).toBe(0);
    expect(target.listenerCount('uncaughtException')).toBe(0);
  });
});
