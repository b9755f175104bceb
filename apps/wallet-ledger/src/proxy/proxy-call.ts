import { parseAmount } from '@exchange/platform';
import { parseCurrency } from '../domain/currency';
import { requestFingerprint } from '../domain/idempotency';
import { walletErrors } from '../domain/wallet.errors';

// A gateway proxy call as the wallet records it (README.md "Gateway proxy"): what the gateway
// forwarded, what it cost and which budget (an agent hold or a commerce mandate) it is spent under.

export type BudgetKind = 'hold' | 'mandate';

export interface BudgetKey {
  kind: BudgetKind;
  /** The hold_id or mandate_id. */
  ref: string;
}

export interface ProxyCall {
  callId: string;
  agentId: string;
  runId: string;
  upstream: string;
  operation: string;
  /** Micro-units of `currency`. */
  cost: bigint;
  currency: string;
  requestSha256: string;
  responseSha256: string;
  status: number;
  latencyMs: number;
  budgetKind: BudgetKind;
  budgetRef: string;
  idempotencyKey: string | null;
  recordedAt: Date;
}

/** RecordProxyCall as the client sent it (the handlers map the proto oneof to hold_id / mandate_id). */
export interface RecordProxyCallCommand {
  agentId: string;
  runId: string;
  upstream: string;
  operation: string;
  cost: string;
  currency?: string;
  requestSha256: string;
  responseSha256: string;
  status: number;
  latencyMs: number;
  holdId?: string;
  mandateId?: string;
  idempotencyKey?: string;
}

/** A validated RecordProxyCall: `currency` null = the budget's; `fingerprint` covers every field but the key. */
export interface ValidProxyCall {
  agentId: string;
  runId: string;
  upstream: string;
  operation: string;
  cost: bigint;
  currency: string | null;
  requestSha256: string;
  responseSha256: string;
  status: number;
  latencyMs: number;
  budget: BudgetKey;
  idempotencyKey: string | null;
  fingerprint: string;
}

const AGENT_ID = /^[a-z0-9][a-z0-9._-]{0,62}:agent:[a-z0-9][a-z0-9._-]{0,62}$/;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const RUN_ID_RULE = '1-128 of A-Z a-z 0-9 . _ : - starting with a letter or digit';
const NO_SPACE_PRINTABLE = /^[\x21-\x7e]{1,255}$/;
const PRINTABLE = /^[\x20-\x7e]{1,255}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** An hour: a longer upstream call is not a proxy call the gateway could have timed. */
export const MAX_LATENCY_MS = 3_600_000;

const invalid = (field: string, message: string) => walletErrors.validationFailed(`${field} ${message}`, { field });

function matching(value: string | undefined, pattern: RegExp, field: string, what: string): string {
  if (value === undefined || value === '') throw invalid(field, 'is required');
  if (!pattern.test(value)) throw invalid(field, `must be ${what}`);
  return value;
}

function integerIn(value: number, min: number, max: number, field: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(field, `must be an integer from ${min} to ${max}`);
  return value;
}

/** A decimal ≥ 0 with at most 6 fraction digits, in micro-units (0 is a free call, still recorded). */
export function parseCost(value: string | undefined): bigint {
  if (value === undefined || value === '') throw invalid('cost', 'is required');
  let micro: bigint;
  try {
    micro = parseAmount(value);
  } catch {
    throw invalid('cost', 'must be a decimal string with at most 6 fraction digits, e.g. "0.0125"');
  }
  if (micro < 0n) throw invalid('cost', 'must not be negative');
  return micro;
}

function budgetOf(cmd: Pick<RecordProxyCallCommand, 'holdId' | 'mandateId'>): BudgetKey {
  const hold = cmd.holdId !== undefined;
  const mandate = cmd.mandateId !== undefined;
  if (hold === mandate) throw invalid('hold_id', 'or mandate_id: exactly one is required');
  const [kind, field, ref] = hold ? (['hold', 'hold_id', cmd.holdId] as const) : (['mandate', 'mandate_id', cmd.mandateId] as const);
  return { kind, ref: matching(ref, NO_SPACE_PRINTABLE, field, '1-255 printable ASCII characters without spaces') };
}

/** A run named by ExportProxyCasefile: the same rules as RecordProxyCall's. */
export function requireRun(run: { agentId: string; runId: string }): void {
  matching(run.agentId, AGENT_ID, 'agent_id', 'an agent id (<namespace>:agent:<name>)');
  matching(run.runId, RUN_ID, 'run_id', RUN_ID_RULE);
}

/** Validates in field order (README.md "Gateway proxy"); the first problem is the answer, naming its field. */
export function parseRecordProxyCall(cmd: RecordProxyCallCommand): ValidProxyCall {
  const agentId = matching(cmd.agentId, AGENT_ID, 'agent_id', 'an agent id (<namespace>:agent:<name>)');
  const runId = matching(cmd.runId, RUN_ID, 'run_id', RUN_ID_RULE);
  const upstream = matching(cmd.upstream, NO_SPACE_PRINTABLE, 'upstream', '1-255 printable ASCII characters without spaces');
  const operation = matching(cmd.operation, PRINTABLE, 'operation', '1-255 printable ASCII characters');
  const cost = parseCost(cmd.cost);
  const currency = cmd.currency === undefined || cmd.currency === '' ? null : parseCurrency(cmd.currency);
  const requestSha256 = matching(cmd.requestSha256, SHA256_HEX, 'request_sha256', '64 lowercase hex characters');
  const responseSha256 = matching(cmd.responseSha256, SHA256_HEX, 'response_sha256', '64 lowercase hex characters');
  const status = integerIn(cmd.status, 100, 599, 'status');
  const latencyMs = integerIn(cmd.latencyMs, 0, MAX_LATENCY_MS, 'latency_ms');
  const budget = budgetOf(cmd);
  const idempotencyKey = cmd.idempotencyKey === undefined ? null : cmd.idempotencyKey;
  if (idempotencyKey !== null && !PRINTABLE.test(idempotencyKey)) throw invalid('idempotency_key', 'must be 1-255 printable ASCII characters');
  const fields = { agentId, runId, upstream, operation, cost: cost.toString(), currency, requestSha256, responseSha256, status, latencyMs, budget };
  return { ...fields, cost, idempotencyKey, fingerprint: requestFingerprint('record_proxy_call', fields) };
}
