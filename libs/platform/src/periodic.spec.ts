import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { Periodic } from './periodic';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'periodic-spec', destination }) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(2);
  }
}

describe('Periodic', () => {
  it('should run rounds one after the other, never overlapping', async () => {
    const { logger } = capture();
    let rounds = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const periodic = new Periodic('test', 1, async () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await sleep(5);
      inFlight -= 1;
      rounds += 1;
      return 1;
    }, logger);
    periodic.start();
    await until(() => rounds >= 3);
    await periodic.stop();
    expect(maxInFlight).toBe(1);
  });

  it('should never run a round when the interval is 0', async () => {
    const { logger } = capture();
    let rounds = 0;
    const periodic = new Periodic('off', 0, async () => ++rounds, logger);
    periodic.start();
    await sleep(20);
    await periodic.stop();
    expect(rounds).toBe(0);
  });

  it('should log a failed round and keep running', async () => {
    const { lines, logger } = capture();
    let rounds = 0;
    const periodic = new Periodic('flaky', 1, async () => {
      rounds += 1;
      if (rounds === 1) throw new Error('boom');
      return 0;
    }, logger);
    periodic.start();
    await until(() => rounds >= 2);
    await periodic.stop();
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'worker round failed', err: 'boom', worker: 'flaky' }));
  });

  it('should wait for the round in flight on stop and start no new one', async () => {
    const { logger } = capture();
    let started = 0;
    let finished = 0;
    const periodic = new Periodic('slow', 1, async () => {
      started += 1;
      await sleep(30);
      finished += 1;
      return 1;
    }, logger);
    periodic.start();
    await until(() => started === 1);
    await periodic.stop();
    expect(finished).toBe(1);
    await sleep(20);
    expect(started).toBe(1);
  });
});
