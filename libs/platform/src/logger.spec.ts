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

  it('should redact two levels down, in arrays and in errors, and in child bindings, without touching the caller\'s objects', () => {
    const { lines, destination } = capture();
    const logged = {
      items: [{ token: 'in-array' }, { name: 'kept' }],
      err: Object.assign(new Error('boom'), { secret: 'on-error' }),
      a: { b: { password: 'two-deep' }, c: 1 },
      plain: { depth: { three: { token: 'three-deep-is-beyond-the-rule' } } },
    };
    const before = JSON.stringify(logged);
    createLogger({ name: 't', destination }).child({ operator_token: 'bound' }).info(logged, 'x');
    const text = JSON.stringify(lines[0]);
    for (const secret of ['in-array', 'on-error', 'two-deep', 'bound']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ items: [{ token: '[REDACTED]' }, { name: 'kept' }], a: { b: { password: '[REDACTED]' }, c: 1 } });
    expect(lines[0].err).toMatchObject({ type: 'Error', message: 'boom', secret: '[REDACTED]' });
    expect(lines[0].operator_token).toBe('[REDACTED]');
    // The same reach as pino's paths `key`, `*.key`, `*.*.key`: deeper fields are not searched.
    expect(text).toContain('three-deep-is-beyond-the-rule');
    expect(JSON.stringify(logged)).toBe(before);
    expect((logged.err as Error & { secret: string }).secret).toBe('on-error');
  });

  it('should censor read-only, getter-only and frozen secret fields instead of throwing', () => {
    const { lines, destination } = capture();
    class Creds {
      constructor(readonly user: string, readonly secret: string) {}
    }
    const readOnly = Object.defineProperty(new Error('ro'), 'token', { value: 'ro-token', enumerable: true });
    const getterOnly = Object.defineProperty(new Creds('u', 'x'), 'password', { get: () => 'getter-pass', enumerable: true });
    const frozen = Object.freeze(new Creds('v', 'frozen-secret'));
    createLogger({ name: 't', destination }).info({ err: readOnly, getterOnly, nested: { frozen } }, 'x');
    const text = JSON.stringify(lines[0]);
    for (const secret of ['ro-token', 'getter-pass', 'frozen-secret']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ err: { type: 'Error', message: 'ro', token: '[REDACTED]' }, nested: { frozen: { user: 'v', secret: '[REDACTED]' } } });
    expect(frozen.secret).toBe('frozen-secret');
  });

  it('should censor nested secrets in a child\'s bindings', () => {
    const { lines, destination } = capture();
    createLogger({ name: 't', destination }).child({ user: { token: 'bound-deep' } }).child({ other: 1 }).info('x');
    expect(JSON.stringify(lines[0])).not.toContain('bound-deep');
    expect(lines[0]).toMatchObject({ user: { token: '[REDACTED]' }, other: 1 });
  });

  it('should log an error without secrets through pino\'s error serializer (type, message, stack)', () => {
    const { lines, destination } = capture();
    const err = new Error('plain');
    createLogger({ name: 't', destination }).error({ err }, 'failed');
    expect(lines[0].err).toMatchObject({ type: 'Error', message: 'plain' });
    expect(String((lines[0].err as { stack: string }).stack)).toContain('plain');
  });

  it('should honour the level', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ name: 't', level: 'warn', destination });
    logger.info('dropped');
    logger.warn('kept');
    expect(lines.map((l) => l.msg)).toEqual(['kept']);
  });
});
