import { Writable } from 'node:stream';
import { createLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('should write JSON lines with name, level label and message', () => {
    const { lines, destination } = capture();
    createLogger({ name: 'identity', destination }).info({ a: 1 }, 'hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ name: 'identity', level: 'info', a: 1, msg: 'hello' });
    expect(typeof lines[0].time).toBe('string');
  });

  it('should redact secrets at the top level and nested', () => {
    const { lines, destination } = capture();
    createLogger({ name: 't', destination }).info(
      {
        authorization: 'Bearer abc',
        token: 't1',
        operator_token: 't2',
        secret: 's',
        password: 'p',
        private_key: 'k1',
        privateKey: 'k2',
        headers: { authorization: 'Bearer def' },
        req: { body: { password: 'deep' } },
      },
      'x',
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ['Bearer abc', 't1', 't2', '"s"', '"p"', 'k1', 'k2', 'Bearer def', 'deep']) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0].token).toBe('[REDACTED]');
    expect((lines[0].headers as Record<string, unknown>).authorization).toBe('[REDACTED]');
  });

  it('should honour the level', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ name: 't', level: 'warn', destination });
    logger.info('dropped');
    logger.warn('kept');
    expect(lines.map((l) => l.msg)).toEqual(['kept']);
  });
});
