// The fuzzing loop: a few workers take requests from the seeded stream, pick credentials within
// the rate budgets, send the exact bytes, check every answer (and the oracles' invariants), undo
// market-wide switches, and
// stop at the request or time budget — or at once when the exchange dies or stops answering
// /health.
import { agentHeaders, forgedHeaders, operatorHeaders, type Credentials } from './auth';
import type { CaseStream, NumberedCase } from './case-stream';
import { checkResponse, isDocumentedUpstreamError, problemCode, type Violation } from './checker';
import { Gate } from './gate';
import { atAddress, budgetKeys, clientAddresses, defaultBudget, Pacer, PER_IP } from './pacer';
import { escrowViolation, replayViolation, shouldReplay, storedViolation } from './oracles';
import { policyFor } from './policies';
import { sendRaw, type SendResult } from './raw-http';
import type { Failure } from './report';
import type { AuthKind, RequestCase } from './request-case';
import { Stats } from './stats';
import { toJsonText } from './json-text';

export interface RunOptions {
  host: string;
  port: number;
  creds: Credentials;
  stream: CaseStream;
  durationSec: number;
  maxRequests: number;
  concurrency: number;
  /** Holds the market made for escrow: the wallet routes must never move them. */
  escrowHolds: ReadonlySet<string>;
  /** Identity levels setup left (restores put fuzzed changes back to them). */
  levels: ReadonlyMap<string, string>;
  /** Why the exchange process is gone (it exited), or null while it runs. */
  deadReason: () => string | null;
  /** Called with every request and its outcome (for --trace). */
  trace?: (entry: TraceEntry) => void;
  log: (line: string) => void;
}

export interface TraceEntry {
  index: number;
  operation: string;
  method: string;
  target: string;
  auth: AuthKind;
  label: string;
  status: number | null;
  code: string | null;
  ms: number;
}

export interface RunResult {
  stats: Stats;
  failures: Failure[];
  /** The run was cut short: the exchange died or stopped answering /health. */
  fatal: string | null;
}

const REQUEST_TIMEOUT_MS = 30_000;
const HEALTH_EVERY_MS = 5_000;
const HEALTH_TIMEOUT_MS = 10_000;
const HEALTH_STRIKES = 3;

interface Chosen {
  kind: AuthKind;
  signer: number;
  keys: string[];
  /** The client address it goes out from (per-IP budgets), or undefined for the default. */
  address?: string;
}

const ADDRESSES = clientAddresses(32);

export async function runFuzz(o: RunOptions): Promise<RunResult> {
  const stats = new Stats();
  const failures: Failure[] = [];
  const pacer = new Pacer(defaultBudget);
  const gate = new Gate();
  const signers = o.creds.signers;
  const deadline = Date.now() + o.durationSec * 1000;
  let fatal: string | null = null;
  let issued = 0;

  const send = (method: string, target: string, headers: Array<[string, string]>, body: Buffer | null, address?: string): Promise<SendResult> =>
    sendRaw(o.host, o.port, { method, target, headers, body }, REQUEST_TIMEOUT_MS, address);

  /** Takes the budgets of `keys`; per-IP ones from the first client address that has them left. */
  let nextAddress = 0;
  function take(keys: string[], dryRun = false): { keys: string[]; address?: string } | null {
    if (!keys.some((k) => PER_IP.has(k))) return (dryRun ? pacer.canTake(keys) : pacer.tryTake(keys)) ? { keys } : null;
    for (let i = 0; i < ADDRESSES.length; i++) {
      const address = ADDRESSES[(nextAddress + i) % ADDRESSES.length];
      const bound = atAddress(keys, address);
      if (dryRun ? pacer.canTake(bound) : pacer.tryTake(bound)) {
        if (!dryRun) nextAddress = (nextAddress + i + 1) % ADDRESSES.length;
        return { keys: bound, address };
      }
    }
    return null;
  }

  // Public routes and requests that match no route are counted per IP by the gateway.
  const ipCounted = (c: RequestCase) => !(c.op.auth.operator || c.op.auth.agent) || c.focus === 'method' || c.label.startsWith('path reshaped');
  // Requests whose credentials the hostile part itself breaks: failed authentications, counted per
  // IP by the gateway (past 30 a minute it refuses the IP), so they spend the failure budget.
  const breaksAuth = (c: RequestCase, kind: AuthKind) =>
    (c.focus === 'header' && /Authorization|X-Agent/.test(c.label)) || (kind === 'agent' && c.body !== null && !['POST', 'PUT', 'PATCH'].includes(c.method.toUpperCase()));
  const withFailure = (keys: string[], c: RequestCase, kind: AuthKind) => (breaksAuth(c, kind) && !keys.includes('auth-failure') ? [...keys, 'auth-failure'] : keys);
  const operatorKeys = (c: RequestCase) => withFailure(budgetKeys('operator', c.op.auth, signers[c.signer].agentId, c.actAs, ipCounted(c)), c, 'operator');

  // A request whose budget is spent waits aside while the next ones go; it goes first once its
  // budget is back (the requests stay the seeded ones, only their order shifts).
  const deferred: NumberedCase[] = [];
  function nextCase(): NumberedCase {
    const ready = deferred.findIndex((n) => take(operatorKeys(n.case), true) !== null);
    if (ready >= 0) return deferred.splice(ready, 1)[0];
    for (let tries = 0; tries < 20 && deferred.length < 200; tries++) {
      const n = o.stream.next();
      if (take(operatorKeys(n.case), true) !== null) return n;
      deferred.push(n);
    }
    return deferred.shift() ?? o.stream.next();
  }

  /** The first preferred credentials whose budgets allow a request now (the operator waits for one). */
  async function choose(c: RequestCase): Promise<Chosen> {
    for (const kind of c.auth) {
      if (kind === 'operator') {
        let got = take(operatorKeys(c));
        while (!got) {
          await new Promise((r) => setTimeout(r, 25));
          got = take(operatorKeys(c));
        }
        return { kind, signer: c.signer, ...got };
      }
      // Only the drawn signer: the request names it (its wallet, its offers) where it acts as itself.
      const got = take(withFailure(budgetKeys(kind, c.op.auth, signers[c.signer].agentId, false, ipCounted(c)), c, kind));
      if (got) return { kind, signer: c.signer, ...got };
    }
    throw new Error('unreachable: the operator is always the last choice');
  }

  function credentials(c: RequestCase, chosen: Chosen): { headers: Array<[string, string]>; note: string } {
    const signer = signers[chosen.signer];
    switch (chosen.kind) {
      case 'operator':
        return { headers: operatorHeaders(o.creds.operatorToken, c.actAs ? signer.agentId : null), note: c.actAs ? ' (acting)' : '' };
      case 'agent':
        return { headers: agentHeaders(signer, c.method, c.target, c.body), note: '' };
      case 'none':
        return { headers: [], note: '' };
      case 'forged': {
        const forged = forgedHeaders(c.forgery, o.creds, signer, c.method, c.target, c.body, new Date(), c.uploadRef !== null);
        return { headers: forged.headers, note: ` (${forged.label})` };
      }
    }
  }

  async function restoreAfter(c: RequestCase): Promise<void> {
    for (const r of policyFor(c.op, o.levels).restore(c.target)) {
      const body = Buffer.from(toJsonText(r.body));
      stats.housekeeping++;
      const res = await send(r.method, r.target, [...operatorHeaders(o.creds.operatorToken, null), ['Content-Type', 'application/json']], body);
      if (!res.ok || res.response.status >= 500) o.log(`restore ${r.method} ${r.target} failed: ${res.ok ? res.response.status : res.error}`);
    }
  }

  /** The oracles (oracles.ts): what a status code alone does not show. */
  async function secondLook(index: number, c: RequestCase, chosen: Chosen, headers: Array<[string, string]>, status: number): Promise<Violation[]> {
    const out: Violation[] = [];
    const escrow = escrowViolation(c, status, o.escrowHolds);
    if (escrow) out.push(escrow);
    if (c.uploadRef && status >= 400) {
      stats.housekeeping++;
      const look = await send('GET', `/v1/artifacts/${c.uploadRef}`, operatorHeaders(o.creds.operatorToken, null), null);
      const stored = look.ok ? storedViolation(status, look.response.status, c.uploadRef) : null;
      if (stored) out.push(stored);
    }
    if (shouldReplay(chosen.kind, c, status, index) && pacer.tryTake(chosen.keys)) {
      stats.housekeeping++;
      const again = await send(c.method, c.target, headers, c.body, chosen.address);
      const replay = again.ok ? replayViolation(again.response.status, again.response.headers) : null;
      if (replay) out.push(replay);
    }
    return out;
  }

  async function runOne(index: number, c: RequestCase): Promise<void> {
    const chosen = await choose(c);
    const auth = credentials(c, chosen);
    const headers: Array<[string, string]> = [...auth.headers, ...(c.contentType !== null ? ([['Content-Type', c.contentType]] as Array<[string, string]>) : []), ...c.headers];
    const result = await send(c.method, c.target, headers, c.body, chosen.address);
    const base = { index, operation: c.op.key, method: c.method, target: c.target, auth: chosen.kind, label: `${c.label}${auth.note}` };
    o.trace?.({
      ...base,
      target: c.target.slice(0, 300),
      status: result.ok ? result.response.status : null,
      code: result.ok ? problemCode(result.response.body.toString('utf8')) : result.error,
      ms: result.ms,
    });
    if (!result.ok) {
      stats.record(chosen.kind, c.focus, c.op.key, null);
      if (o.deadReason() === null) failures.push({ ...base, status: null, code: null, violations: [{ kind: 'no_response', detail: result.error }], excerpt: '' });
      return;
    }
    const { status, headers: resHeaders } = result.response;
    const body = result.response.body.toString('utf8');
    stats.record(chosen.kind, c.focus, c.op.key, status);
    if (status >= 500 && isDocumentedUpstreamError(status, body)) stats.upstream++;
    stats.latency(result.ms, `${c.method} ${c.op.path} ${c.label}`.slice(0, 120));
    const violations = [...checkResponse({ method: c.method, status, headers: resHeaders, body }), ...(await secondLook(index, c, chosen, headers, status))];
    if (violations.length > 0) failures.push({ ...base, status, code: problemCode(body), violations, excerpt: body.slice(0, 400) });
    if (status === 429) {
      const retry = Math.min(60, Number(resHeaders['retry-after']) || 10);
      for (const key of chosen.keys) if (key !== 'operator') pacer.block(key, retry);
      if (chosen.kind === 'operator' && !chosen.keys.some((k) => k.includes('@'))) o.log(`  429 for the operator on ${c.method} ${c.op.path}: ${body.slice(0, 160)}`);
    }
    if (status >= 200 && status < 300) await restoreAfter(c);
  }

  // /health must keep answering while the fuzzer works (200, or a problem+json 429: /health is
  // rate-limited per IP like every public route), and the process must stay alive.
  let strikes = 0;
  let checking = false;
  const monitor = setInterval(() => {
    if (fatal || checking) return;
    const dead = o.deadReason();
    if (dead) {
      fatal = `the exchange process ${dead}`;
      return;
    }
    checking = true;
    void sendRaw(o.host, o.port, { method: 'GET', target: '/health', headers: [], body: null }, HEALTH_TIMEOUT_MS).then((res) => {
      checking = false;
      if (res.ok && (res.response.status === 200 || res.response.status === 429)) strikes = 0;
      else if (++strikes >= HEALTH_STRIKES) fatal = `the exchange stopped answering /health (${res.ok ? `status ${res.response.status}` : res.error}, ${strikes} checks in a row)`;
    });
  }, HEALTH_EVERY_MS);

  let lastProgress = Date.now();
  const started = Date.now();
  const worker = async () => {
    while (!fatal && issued < o.maxRequests && Date.now() < deadline) {
      issued++;
      const { index, case: c } = nextCase();
      const run = () => runOne(index, c);
      await (policyFor(c.op, o.levels).exclusive ? gate.exclusive(run) : gate.shared(run));
      if (Date.now() - lastProgress > 15_000) {
        lastProgress = Date.now();
        o.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${stats.sent} requests, ${stats.count((s) => s >= 500) - stats.upstream} × 5xx (+${stats.upstream} merchant), ${failures.length} offending`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    clearInterval(monitor);
    stats.finish();
  }
  const dead = o.deadReason();
  if (!fatal && dead) fatal = `the exchange process ${dead}`;
  return { stats, failures, fatal };
}
