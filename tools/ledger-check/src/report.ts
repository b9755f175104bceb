import type { walletV1 } from '@exchange/proto';

/** One finding of the reconciliation (CheckLedger's LedgerDiscrepancy). */
export interface Discrepancy {
  kind: string;
  subject: string;
  expected: string;
  actual: string;
  detail: string;
}

/** CheckLedger's answer, the same whether it came over gRPC or through the gateway. */
export interface LedgerReport {
  ok: boolean;
  accountsChecked: bigint;
  entriesChecked: bigint;
  postingsChecked: bigint;
  /** Per currency, the sum of every account; "0" when the books balance. */
  globalSums: Record<string, string>;
  discrepancies: Discrepancy[];
  checkedAt: string | null;
}

/** Thrown when the answer is not a CheckLedger report (wrong service, proxy page…). */
export class MalformedReportError extends Error {
  constructor(message: string) {
    super(`not a ledger check report: ${message}`);
    this.name = 'MalformedReportError';
  }
}

export function fromGrpc(res: walletV1.CheckLedgerResponse): LedgerReport {
  return {
    ok: res.ok,
    accountsChecked: BigInt(res.accountsChecked),
    entriesChecked: BigInt(res.entriesChecked),
    postingsChecked: BigInt(res.postingsChecked),
    globalSums: { ...res.globalSums },
    discrepancies: res.discrepancies.map((d) => ({ kind: d.kind, subject: d.subject, expected: d.expected, actual: d.actual, detail: d.detail })),
    checkedAt: res.checkedAt ? res.checkedAt.toISOString() : null,
  };
}

type Json = Record<string, unknown>;

// The gateway answers snake_case (DESIGN §3); the camelCase of proto JSON is accepted too, so
// the tool also reads a report saved from grpcurl or the proto's toJSON.
function field(obj: Json, snake: string): unknown {
  if (snake in obj) return obj[snake];
  const camel = snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return obj[camel];
}

function count(obj: Json, name: string): bigint {
  const value = field(obj, name);
  if (value === undefined || value === null) return 0n; // proto JSON leaves zero counts out
  if ((typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) || (typeof value === 'string' && /^\d+$/.test(value))) {
    return BigInt(value);
  }
  throw new MalformedReportError(`${name} is ${JSON.stringify(value)}, not a count`);
}

function text(obj: Json, name: string): string {
  const value = field(obj, name);
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new MalformedReportError(`${name} is ${JSON.stringify(value)}, not a string`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the JSON of `GET /v1/ledger/check` (snake_case) or a proto-JSON CheckLedgerResponse. */
export function fromJson(body: unknown): LedgerReport {
  if (!isObject(body)) throw new MalformedReportError('the body is not a JSON object');
  const ok = field(body, 'ok');
  if (ok !== undefined && typeof ok !== 'boolean') throw new MalformedReportError('ok is not a boolean');
  const sums = field(body, 'global_sums') ?? {};
  if (!isObject(sums)) throw new MalformedReportError('global_sums is not an object');
  const globalSums: Record<string, string> = {};
  for (const [currency, sum] of Object.entries(sums)) {
    if (typeof sum !== 'string' && typeof sum !== 'number') throw new MalformedReportError(`global_sums.${currency} is not an amount`);
    globalSums[currency] = String(sum);
  }
  const list = field(body, 'discrepancies') ?? [];
  if (!Array.isArray(list)) throw new MalformedReportError('discrepancies is not a list');
  const discrepancies = list.map((d, i) => {
    if (!isObject(d)) throw new MalformedReportError(`discrepancies[${i}] is not an object`);
    return { kind: text(d, 'kind'), subject: text(d, 'subject'), expected: text(d, 'expected'), actual: text(d, 'actual'), detail: text(d, 'detail') };
  });
  const checkedAt = text(body, 'checked_at');
  // `ok` is absent only in proto JSON, where false is left out; a report without it and without
  // any count is something else answering.
  if (ok === undefined && field(body, 'accounts_checked') === undefined && field(body, 'checked_at') === undefined) {
    throw new MalformedReportError('neither ok, accounts_checked nor checked_at is present');
  }
  return {
    ok: ok === true,
    accountsChecked: count(body, 'accounts_checked'),
    entriesChecked: count(body, 'entries_checked'),
    postingsChecked: count(body, 'postings_checked'),
    globalSums,
    discrepancies,
    checkedAt: checkedAt === '' ? null : checkedAt,
  };
}

/** Currencies whose accounts do not sum to zero (the service should have said so too). */
export function unbalancedCurrencies(report: LedgerReport): string[] {
  return Object.entries(report.globalSums)
    .filter(([, sum]) => !/^-?0(\.0*)?$/.test(sum))
    .map(([currency]) => currency)
    .sort();
}

/**
 * The verdict, not taken on trust: the books are consistent only when the service says ok, lists
 * no discrepancy and every currency sums to zero.
 */
export function isConsistent(report: LedgerReport): boolean {
  return report.ok && report.discrepancies.length === 0 && unbalancedCurrencies(report).length === 0;
}

/** The JSON the tool prints with --json (snake_case like the gateway; counts as numbers when safe). */
export function toJson(report: LedgerReport, source: string): Record<string, unknown> {
  const n = (v: bigint) => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());
  return {
    source,
    consistent: isConsistent(report),
    ok: report.ok,
    accounts_checked: n(report.accountsChecked),
    entries_checked: n(report.entriesChecked),
    postings_checked: n(report.postingsChecked),
    global_sums: report.globalSums,
    unbalanced_currencies: unbalancedCurrencies(report),
    discrepancies: report.discrepancies,
    checked_at: report.checkedAt,
  };
}
