import { Gate } from './gate';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Gate', () => {
  it('runs shared work side by side and exclusive work alone', async () => {
    const gate = new Gate();
    const log: string[] = [];
    let inFlight = 0;
    let maxWithExclusive = 0;
    const shared = (name: string) =>
      gate.shared(async () => {
        inFlight++;
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        inFlight--;
      });
    const a = shared('a');
    const b = shared('b');
    const exclusive = gate.exclusive(async () => {
      maxWithExclusive = Math.max(maxWithExclusive, inFlight);
      log.push('exclusive');
      await tick();
      maxWithExclusive = Math.max(maxWithExclusive, inFlight);
    });
    const c = shared('c');
    await Promise.all([a, b, exclusive, c]);
    expect(maxWithExclusive).toBe(0);
    // a and b were already running; c waited for the exclusive one.
    expect(log.indexOf('exclusive')).toBeGreaterThan(log.indexOf('end a'));
    expect(log.indexOf('exclusive')).toBeGreaterThan(log.indexOf('end b'));
    expect(log.indexOf('start c')).toBeGreaterThan(log.indexOf('exclusive'));
  });

  it('releases on failure', async () => {
    const gate = new Gate();
    await expect(gate.exclusive(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(gate.shared(async () => 1)).resolves.toBe(1);
  });
});
