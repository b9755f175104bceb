// The run's figures: requests sent, per status code, per credentials, per place of hostility,
// 5xx and 429 counts, transport errors, duration.
import type { AuthKind, Focus } from './request-case';

const inc = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
const sorted = <K>(map: Map<K, number>, byKey = false) =>
  [...map.entries()].sort((a, b) => (byKey ? String(a[0]).localeCompare(String(b[0])) : b[1] - a[1]));

export class Stats {
  sent = 0;
  readonly byStatus = new Map<number, number>();
  readonly byAuth = new Map<AuthKind, number>();
  readonly byFocus = new Map<Focus, number>();
  readonly byOperation = new Map<string, number>();
  /** Operations that answered 2xx at least once: the requests reached the service behind them. */
  readonly succeeded = new Set<string>();
  /** 5xx answers that are documented merchant failures (checker.ts), not defects. */
  upstream = 0;
  /** Requests with no HTTP answer (connection closed, timeout). */
  noResponse = 0;
  /** Restores (unfreeze, market state back to normal) and the final checks: not fuzz requests. */
  housekeeping = 0;
  private readonly latencies: number[] = [];
  /** The slowest answer (gzip bombs and other expensive inputs show here). */
  slowest: { ms: number; what: string } | null = null;
  private readonly startedAt: number;
  private endedAt: number | null = null;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  record(auth: AuthKind, focus: Focus, operation: string, status: number | null): void {
    this.sent++;
    inc(this.byAuth, auth);
    inc(this.byFocus, focus);
    inc(this.byOperation, operation);
    if (status === null) this.noResponse++;
    else inc(this.byStatus, status);
    if (status !== null && status >= 200 && status < 300) this.succeeded.add(operation);
  }

  latency(ms: number, what: string): void {
    this.latencies.push(ms);
    if (!this.slowest || ms > this.slowest.ms) this.slowest = { ms, what };
  }

  percentile(p: number): number {
    if (this.latencies.length === 0) return 0;
    const sortedMs = [...this.latencies].sort((a, b) => a - b);
    return sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))];
  }

  finish(): void {
    this.endedAt ??= this.now();
  }

  get durationMs(): number {
    return (this.endedAt ?? this.now()) - this.startedAt;
  }

  count(predicate: (status: number) => boolean): number {
    let n = 0;
    for (const [status, c] of this.byStatus) if (predicate(status)) n += c;
    return n;
  }

  neverSucceeded(): string[] {
    return [...this.byOperation.keys()].filter((op) => !this.succeeded.has(op)).sort();
  }

  format(): string {
    const pairs = <K>(map: Map<K, number>, byKey = false) => sorted(map, byKey).map(([k, v]) => `${k} ${v}`).join(', ');
    const seconds = this.durationMs / 1000;
    return [
      `requests:    ${this.sent} in ${seconds.toFixed(1)} s (${(this.sent / Math.max(seconds, 0.001)).toFixed(1)}/s), ${this.byOperation.size} operations`,
      `statuses:    ${pairs(this.byStatus, true)}`,
      `auth:        ${pairs(this.byAuth)}`,
      `hostile in:  ${pairs(this.byFocus)}`,
      `5xx:         ${this.count((s) => s >= 500)}${this.upstream ? ` (${this.upstream} documented merchant failures: merchant_protocol_error|merchant_unavailable 502, merchant_timeout 504)` : ''}`,
      `429:         ${this.count((s) => s === 429)}`,
      `no response: ${this.noResponse}`,
      `latency:     p50 ${this.percentile(50)} ms, p99 ${this.percentile(99)} ms, max ${this.slowest ? `${this.slowest.ms} ms (${this.slowest.what})` : '-'}`,
      `2xx reached: ${this.succeeded.size} of ${this.byOperation.size} operations${this.neverSucceeded().length ? `; never 2xx: ${this.neverSucceeded().join(', ')}` : ''}`,
      `housekeeping requests (restores, checks): ${this.housekeeping}`,
    ].join('\n');
  }
}
