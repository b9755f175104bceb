import { boostOfScore, boosts, decayedWeight } from './boost';

const NOW = new Date('2026-10-21T00:00:00.000Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

describe('matching boosts', () => {
  it('should weigh each kind and halve it every 7 days', () => {
    expect(decayedWeight('impression', NOW, NOW)).toBe(1);
    expect(decayedWeight('click', NOW, NOW)).toBe(3);
    expect(decayedWeight('shortlist', daysAgo(7), NOW)).toBeCloseTo(3, 12);
    expect(decayedWeight('award', daysAgo(14), NOW)).toBeCloseTo(2.5, 12);
    expect(decayedWeight('award', new Date(NOW.getTime() + 60_000), NOW)).toBe(10);
  });

  it('should squash a score to 1 − e^(−score/10)', () => {
    expect(boostOfScore(0)).toBe(0);
    expect(boostOfScore(10)).toBeCloseTo(1 - Math.exp(-1), 12); // ≈ 0.632
    expect(boostOfScore(1000)).toBeLessThanOrEqual(1);
  });

  it('should sum a candidate’s signals and leave out candidates without any', () => {
    const result = boosts(
      [
        { candidateId: 'a', signal: 'award', occurredAt: daysAgo(7) }, // 5
        { candidateId: 'b', signal: 'click', occurredAt: NOW }, // 3
        { candidateId: 'a', signal: 'impression', occurredAt: NOW }, // 1
      ],
      NOW,
    );
    expect(result.map((r) => r.candidateId)).toEqual(['a', 'b']);
    expect(result[0].boost).toBeCloseTo(1 - Math.exp(-0.6), 12);
    expect(result[1].boost).toBeCloseTo(1 - Math.exp(-0.3), 12);
  });
});
