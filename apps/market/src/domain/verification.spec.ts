import { checkChecks, checkScore, median, reportSigningPayload, verificationMetrics, windowStart } from './verification';

describe('reportSigningPayload', () => {
  it('should be the canonical JSON of the five fields with checks as sent and absent detail absent', () => {
    expect(
      reportSigningPayload({
        verifierId: 'v',
        resultId: 'res_1',
        verdict: 'pass',
        score: 0.5,
        checks: [{ name: 'b', ok: true }, { name: 'a', ok: false, detail: 'x' }],
      }),
    ).toBe('{"checks":[{"name":"b","ok":true},{"detail":"x","name":"a","ok":false}],"result_id":"res_1","score":0.5,"verdict":"pass","verifier_id":"v"}');
  });
});

describe('report checks', () => {
  it('should accept scores from 0 to 1 only (invalid_score)', () => {
    expect(checkScore(0)).toBe(0);
    expect(checkScore(1)).toBe(1);
    expect(() => checkScore(1.01)).toThrow(expect.objectContaining({ code: 'invalid_score' }));
    expect(() => checkScore(-0.1)).toThrow(expect.objectContaining({ code: 'invalid_score' }));
    expect(() => checkScore(Number.NaN)).toThrow();
  });
  it('should refuse empty names, long details and more than 100 checks', () => {
    expect(() => checkChecks([{ name: '', ok: true }])).toThrow(expect.objectContaining({ details: { field: 'checks' } }));
    expect(() => checkChecks([{ name: 'n', ok: true, detail: 'x'.repeat(2001) }])).toThrow();
    expect(() => checkChecks(Array.from({ length: 101 }, () => ({ name: 'n', ok: true })))).toThrow();
  });
});

describe('metrics', () => {
  it('should take the median, the mean of the two middle values rounded down for an even count', () => {
    expect(median([])).toBeNull();
    expect(median([5])).toBe(5);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([1, 2, 4, 10])).toBe(3);
    expect(median([1, 2])).toBe(1);
  });
  it('should count passes and fails with a null pass rate when there are no reports', () => {
    expect(verificationMetrics([])).toEqual({ reports: 0, passed: 0, failed: 0, passRate: null, medianLatencyMs: null });
    expect(
      verificationMetrics([
        { verdict: 'pass', latencyMs: 100 },
        { verdict: 'fail', latencyMs: 300 },
        { verdict: 'pass', latencyMs: 200 },
        { verdict: 'pass', latencyMs: 1000 },
      ]),
    ).toEqual({ reports: 4, passed: 3, failed: 1, passRate: 0.75, medianLatencyMs: 250 });
  });
  it('should start windows 1h, 1d, 7d back, none for all', () => {
    const now = new Date('2026-01-08T00:00:00Z');
    expect(windowStart('all', now)).toBeNull();
    expect(windowStart('1h', now)).toEqual(new Date('2026-01-07T23:00:00Z'));
    expect(windowStart('1d', now)).toEqual(new Date('2026-01-07T00:00:00Z'));
    expect(windowStart('7d', now)).toEqual(new Date('2026-01-01T00:00:00Z'));
  });
});
