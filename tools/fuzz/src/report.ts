// Offending requests, grouped into classes (same route, method, status, problem code and
// violation), each class printed compactly with a few examples: method, path, status, what was
// hostile, and a short excerpt of the answer.
import type { Violation } from './checker';
import { preview } from './mutate';
import type { AuthKind } from './request-case';

export interface Failure {
  index: number;
  /** The operation's route template, e.g. `POST /v1/wallets/{agent_id}/faucet`. */
  operation: string;
  method: string;
  target: string;
  auth: AuthKind;
  /** What was hostile about the request. */
  label: string;
  status: number | null;
  code: string | null;
  violations: Violation[];
  excerpt: string;
}

export interface FailureClass {
  key: string;
  count: number;
  examples: Failure[];
  /** `METHOD /route` (×n), most frequent first. */
  routes?: string[];
}

const routeOf = (f: Failure) => f.operation.replace(/^\S+ /, '');

/** What the answer says went wrong: its problem code, else the `code`/`message` of a non-problem JSON body. */
export function causeOf(f: Failure): string {
  if (f.code) return f.code;
  try {
    const body = JSON.parse(f.excerpt) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string') return JSON.stringify(body.message.slice(0, 60));
    if (typeof body.error === 'string') return JSON.stringify(body.error.slice(0, 60));
  } catch {
    // not JSON (or cut short)
  }
  return f.violations.find((v) => v.kind === 'no_response')?.detail ?? '';
}

/** A class of failures: the same violations, status and cause, whatever the route. */
export function classKey(f: Failure): string {
  const kinds = [...new Set(f.violations.map((v) => v.kind))].sort().join('+');
  const cause = causeOf(f);
  return `${kinds} → ${f.status ?? 'no response'}${cause ? ` ${cause}` : ''}`;
}

export function groupFailures(failures: Failure[], keep = 3): FailureClass[] {
  const classes = new Map<string, FailureClass>();
  const routes = new Map<string, Map<string, number>>();
  for (const f of failures) {
    const key = classKey(f);
    let c = classes.get(key);
    if (!c) classes.set(key, (c = { key, count: 0, examples: [] }));
    let perRoute = routes.get(key);
    if (!perRoute) routes.set(key, (perRoute = new Map()));
    c.count++;
    const route = `${f.method} ${routeOf(f)}`;
    perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
    // Keep examples on different routes.
    if (c.examples.length < keep && !c.examples.some((e) => e.operation === f.operation && e.method === f.method)) c.examples.push(f);
  }
  for (const [key, c] of classes) {
    c.routes = [...(routes.get(key) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]).map(([r, n]) => (n > 1 ? `${r} ×${n}` : r));
  }
  return [...classes.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

export function formatFailures(classes: FailureClass[]): string {
  const lines: string[] = [];
  for (const c of classes) {
    const routes = c.routes ?? [];
    lines.push(`✗ ${c.key}  (×${c.count} on ${routes.length} route${routes.length === 1 ? '' : 's'})`);
    if (routes.length > c.examples.length) lines.push(`    routes: ${routes.slice(0, 12).join(', ')}${routes.length > 12 ? `, … ${routes.length - 12} more` : ''}`);
    for (const e of c.examples) {
      lines.push(`    #${e.index} ${e.method} ${preview(e.target, 100).replace(/^"|"$/g, '')} [${e.auth}] ${e.label}`);
      lines.push(`      ${e.violations.map((v) => `${v.kind}: ${v.detail}`).join('; ')} — ${preview(e.excerpt, 160)}`);
    }
  }
  return lines.join('\n');
}
