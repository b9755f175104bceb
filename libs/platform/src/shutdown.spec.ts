import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { onShutdown } from './shutdown';

const silent = createLogger({ name: 'shutdown-spec', destination: new Writable({ write: (_c, _e, done) => done() }) });

describe('onShutdown', () => {
  it('should run the steps in order and exit 0 once, however often it is triggered', async () => {
    const order: string[] = [];
    const exits: number[] = [];
    const trigger = onShutdown(
      silent,
      [
        { name: 'grpc', run: async () => void order.push('grpc') },
        { name: 'db', run: async () => void order.push('db') },
      ],
      { exit: (code) => exits.push(code), signals: [] },
    );
    await Promise.all([trigger(), trigger()]);
    await trigger();
    expect(order).toEqual(['grpc', 'db']);
    expect(exits).toEqual([0]);
  });

  it('should keep going after a failing step', async () => {
    const order: string[] = [];
    const exits: number[] = [];
    const trigger = onShutdown(
      silent,
      [
        { name: 'a', run: async () => { throw new Error('boom'); } },
        { name: 'b', run: async () => void order.push('b') },
      ],
      { exit: (code) => exits.push(code), signals: [] },
    );
    await trigger();
    expect(order).toEqual(['b']);
    expect(exits).toEqual([0]);
  });

  it('should exit 1 when the steps outlast the timeout, and skip the remaining steps', async () => {
    const order: string[] = [];
    const exits: number[] = [];
    let release!: () => void;
    const trigger = onShutdown(
      silent,
      [
        { name: 'hang', run: () => new Promise<void>((resolve) => (release = resolve)) },
        { name: 'after', run: async () => void order.push('after') },
      ],
      { timeoutMs: 20, exit: (code) => exits.push(code), signals: [] },
    );
    await trigger();
    expect(exits).toEqual([1]);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    expect(exits).toEqual([1]);
  });
});
