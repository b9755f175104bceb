// Client-side rate budgets, kept under the gateway's limits (DESIGN §3: 120/min per sandbox
// agent, 300/min per IP without credentials, 30 failed authentications/min per IP) so the
// run's requests reach the routes instead of spending the budget on 429s. A 429 that still
// happens blocks its budget until Retry-After.

export interface Budget {
  perMinute: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  updated: number;
  blockedUntil: number;
  budget: Budget;
}

export class Pacer {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly budgetOf: (key: string) => Budget,
    private readonly now: () => number = Date.now,
  ) {}

  private bucket(key: string): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      const budget = this.budgetOf(key);
      b = { tokens: budget.burst, updated: this.now(), blockedUntil: 0, budget };
      this.buckets.set(key, b);
    }
    const t = this.now();
    b.tokens = Math.min(b.budget.burst, b.tokens + ((t - b.updated) / 60_000) * b.budget.perMinute);
    b.updated = t;
    return b;
  }

  /** Whether tryTake(keys) would succeed now. */
  canTake(keys: string[]): boolean {
    return keys.map((k) => this.bucket(k)).every((b) => b.tokens >= 1 && b.blockedUntil <= this.now());
  }

  /** Takes one token from every key, or none when any of them is empty or blocked. */
  tryTake(keys: string[]): boolean {
    const buckets = keys.map((k) => this.bucket(k));
    if (buckets.some((b) => b.tokens < 1 || b.blockedUntil > this.now())) return false;
    for (const b of buckets) b.tokens -= 1;
    return true;
  }

  /** After a 429: nothing more on this key for `seconds`. */
  block(key: string, seconds: number): void {
    const b = this.bucket(key);
    b.blockedUntil = Math.max(b.blockedUntil, this.now() + seconds * 1000);
    b.tokens = 0;
  }
}

/** The gateway's limits with a margin (`anonymous@127.0.1.3`: the per-IP budgets of one address). */
export function defaultBudget(fullKey: string): Budget {
  const key = fullKey.replace(/@.*$/, '');
  if (key === 'operator') return { perMinute: 3000, burst: 50 };
  if (key === 'anonymous') return { perMinute: 200, burst: 10 };
  if (key === 'auth-failure') return { perMinute: 20, burst: 3 };
  return { perMinute: 100, burst: 8 }; // agent:<id>
}

/**
 * The budgets a request spends: who the gateway counts it against. `ipCounted`: a public route,
 * or a request that will not match a route (404/405), is counted per IP whatever its credentials.
 */
export function budgetKeys(
  kind: 'operator' | 'agent' | 'none' | 'forged',
  auth: { agent: boolean; anonymous: boolean },
  agentId: string,
  actAs: boolean,
  ipCounted = false,
): string[] {
  const keys = credentialKeys(kind, auth, agentId, actAs);
  return ipCounted && !keys.includes('anonymous') ? [...keys, 'anonymous'] : keys;
}

function credentialKeys(kind: 'operator' | 'agent' | 'none' | 'forged', auth: { agent: boolean; anonymous: boolean }, agentId: string, actAs: boolean): string[] {
  switch (kind) {
    case 'operator':
      // With X-Agent-Id the gateway counts the request against that agent.
      return actAs ? ['operator', `agent:${agentId}`] : ['operator'];
    case 'agent':
      // On an operator-only route the signature is refused: an authentication failure too.
      return auth.agent ? [`agent:${agentId}`] : [`agent:${agentId}`, 'auth-failure'];
    case 'none':
      return auth.anonymous ? ['anonymous'] : ['auth-failure'];
    case 'forged':
      return ['auth-failure'];
  }
}

/** Budgets the gateway keeps per client IP. */
export const PER_IP = new Set(['anonymous', 'auth-failure']);

/** The keys with their per-IP budgets bound to `ip`. */
export const atAddress = (keys: string[], ip: string) => keys.map((k) => (PER_IP.has(k) ? `${k}@${ip}` : k));

/** Loopback addresses requests counted per IP go out from, so one address's budget does not starve the run. */
export const clientAddresses = (count: number) => Array.from({ length: count }, (_, i) => `127.0.1.${i + 1}`);
