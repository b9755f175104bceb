// Bayesian average shared by the reputation formulas: the prior acts as `PRIOR_WEIGHT` virtual
// observations of `PRIOR_MEAN`, so little history keeps a score near 0.5 and only evidence moves it.

export const PRIOR_MEAN = 0.5;
export const PRIOR_WEIGHT = 2;

export interface Weighted {
  /** The outcome, 0–1. */
  x: number;
  /** Its (decayed) weight. */
  w: number;
}

export function bayesianAverage(obs: readonly Weighted[]): { score: number; confidence: number; evidence: number } {
  let evidence = 0;
  let sum = 0;
  for (const o of obs) {
    evidence += o.w;
    sum += o.w * o.x;
  }
  return {
    score: (PRIOR_WEIGHT * PRIOR_MEAN + sum) / (PRIOR_WEIGHT + evidence),
    confidence: evidence / (evidence + PRIOR_WEIGHT),
    evidence,
  };
}

/** 0.5^(age / halfLife): an observation one half-life old counts half. Ages below 0 count fully. */
export function decay(ageMs: number, halfLifeMs: number): number {
  return Math.pow(0.5, Math.max(0, ageMs) / halfLifeMs);
}

/** Figures leave the service rounded to 1e-9 so the same history always prints the same number. */
export function round9(v: number): number {
  return Math.round(v * 1e9) / 1e9;
}
