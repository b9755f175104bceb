import { backoffMs, MAX_ATTEMPTS, withRetries } from './retry';

const pgError = (code: string) => Object.assign(new Error(code), { code });

describe('withRetries', () => {
  it('should retry serialization failures and deadlocks until the work succeeds', async () => {
    const failures = [pgError('40001'), pgError('40P01')];
    let calls = 0;
    const retried: number[] = [];
    const result = await withRetries(
      async () => {
        calls++;
        const next = failures.shift();
        if (next) throw next;
        return 'done';
      },
      (_err, attempt) => retried.push(attempt),
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
    expect(retried).toEqual([1, 2]);
  });

  it('should give up after MAX_ATTEMPTS and not retry other errors', async () => {
    let calls = 0;
    await expect(withRetries(async () => { calls++; throw pgError('40001'); })).rejects.toMatchObject({ code: '40001' });
    expect(calls).toBe(MAX_ATTEMPTS);
    calls = 0;
    await expect(withRetries(async () => { calls++; throw pgError('23505'); })).rejects.toMatchObject({ code: '23505' });
    expect(calls).toBe(1);
  });

  it('should jitter within an exponentially growing bound', () => {
    expect(backoffMs(1, () => 0)).toBe(0);
    expect(backoffMs(3, () => 0.999)).toBe(39);
  });
});
