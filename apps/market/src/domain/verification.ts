import { canonicalize } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import type { Verdict, VerificationCheck } from './model';
import { invalid } from './validation';

/** The text a verification report's signature covers (common.md "Verification"). */
export function reportSigningPayload(report: {
  verifierId: string;
  resultId: string;
  verdict: Verdict;
  score: number;
  checks: readonly VerificationCheck[];
}): string {
  return canonicalize({
    verifier_id: report.verifierId,
    result_id: report.resultId,
    verdict: report.verdict,
    score: report.score,
    checks: report.checks.map((c) => (c.detail === undefined ? { name: c.name, ok: c.ok } : { name: c.name, ok: c.ok, detail: c.detail })),
  });
}

/** score 0–1 (400 invalid_score). */
export function checkScore(score: number): number {
  if (!Number.isFinite(score) || score < 0 || score > 1) throw errors.invalidArgument('invalid_score', 'score must be between 0 and 1');
  return score;
}

/** 0–100 checks {name 1–200, ok, detail? ≤ 2000}; detail kept exactly as sent (absent stays absent). */
export function checkChecks(checks: readonly VerificationCheck[]): VerificationCheck[] {
  if (checks.length > 100) invalid('checks', 'at most 100 checks');
  return checks.map((c) => {
    const nameLength = [...c.name].length;
    if (nameLength < 1 || nameLength > 200) invalid('checks', 'each check name must be 1-200 characters');
    if (c.detail !== undefined && [...c.detail].length > 2000) invalid('checks', 'each check detail must be at most 2000 characters');
    return c.detail === undefined ? { name: c.name, ok: c.ok } : { name: c.name, ok: c.ok, detail: c.detail };
  });
}

/** Median; an even count gives the mean of the two middle values rounded down; null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : Math.floor((sorted[mid - 1] + sorted[mid]) / 2);
}

export type MetricsWindow = 'all' | '1h' | '1d' | '7d';

/** Start of the window (report created_at ≥ it), null for all. */
export function windowStart(window: MetricsWindow, now: Date): Date | null {
  const hours = { all: 0, '1h': 1, '1d': 24, '7d': 168 }[window];
  return hours === 0 ? null : new Date(now.getTime() - hours * 3_600_000);
}

export function verificationMetrics(reports: ReadonlyArray<{ verdict: Verdict; latencyMs: number }>): {
  reports: number;
  passed: number;
  failed: number;
  passRate: number | null;
  medianLatencyMs: number | null;
} {
  const passed = reports.filter((r) => r.verdict === 'pass').length;
  return {
    reports: reports.length,
    passed,
    failed: reports.length - passed,
    passRate: reports.length === 0 ? null : passed / reports.length,
    medianLatencyMs: median(reports.map((r) => r.latencyMs)),
  };
}
