// Telemetry (DESIGN §4 Telemetry): matching signals, categories, public and operator event feeds,
// contract timelines, JSONL exports (streamed: an async iterable of parsed lines, or the raw
// bytes), the weekly report, rollups and outcome metrics.
import { ExchangeNetworkError } from './errors';
import { compact, iso } from './market-base';
import { paginate, type Page, type PageParams } from './pagination';
import type { VerificationMetrics, VerificationWindow } from './market-types';
import { pathSegment, type Transport } from './transport';
import type { api } from './wire';

export type MatchingSignal = api.MatchingSignal;
export type MatchingSignalType = MatchingSignal['signal'];
export type Category = api.Category;
export type CategoryObject = api.CategoryObjectPage['data'][number];
export type CategoryObjectPage = api.CategoryObjectPage;
export type PublicEvent = api.PublicEvent;
export type OperatorEvent = api.OperatorEvent;
export type ContractTimeline = api.ContractTimeline;
export type WeeklyReport = api.WeeklyReport;
export type MarketIntegrityRollup = api.MarketIntegrityRollup;
export type BytesToAtomsRollup = api.BytesToAtomsRollup;
export type CoordinationRollup = api.CoordinationRollup;
export type OutcomeMetrics = api.OutcomeMetrics;
export type RollupWindow = MarketIntegrityRollup['window']['window'];

export interface RecordMatchingSignalInput {
  signal: MatchingSignalType;
  contractId: string;
  sellerId: string;
  listingId?: string;
  /** The recommendation answer (`request_id`) the candidate came from. */
  requestId?: string;
  /** Default now; not in the future, not older than 30 days. */
  occurredAt?: Date | string;
}

/** Filters of the event lists and the operator export (all optional, ANDed). */
export interface EventFilter {
  contractId?: string;
  listingId?: string;
  /** Exact (`exchange.market.contract.settled`) or a prefix ending in `.*`. */
  eventType?: string;
  /** occurred_at ≥ from. */
  from?: Date | string;
  /** occurred_at < to. */
  to?: Date | string;
}

export interface RollupQuery {
  /** all, 1h, 1d, 7d (default), 30d. */
  window?: RollupWindow;
  asOf?: Date | string;
}

export interface OutcomeQuery extends RollupQuery {
  merchantId?: string;
  agentId?: string;
}

export interface ExportOptions {
  /** Cancels the export (the gateway stops telemetry's stream too). */
  signal?: AbortSignal;
}

const filterQuery = (f: EventFilter) => ({
  contract_id: f.contractId,
  listing_id: f.listingId,
  event_type: f.eventType,
  from: f.from === undefined ? undefined : iso(f.from),
  to: f.to === undefined ? undefined : iso(f.to),
});
const rollupQuery = (q: RollupQuery) => ({ window: q.window, as_of: q.asOf === undefined ? undefined : iso(q.asOf) });
const timelinePath = (contractId: string, suffix = '') => `/v1/telemetry/contracts/${pathSegment(contractId)}/timeline${suffix}`;

/**
 * The lines of a JSONL byte stream, parsed, as they arrive. A stream that ends in the middle of a
 * line was cut off (the gateway aborts an export that failed after its first line): that is an
 * error, not a shorter export.
 */
export async function* parseJsonl<T>(body: ReadableStream<Uint8Array>, where = 'export'): AsyncGenerator<T, void, undefined> {
  const decoder = new TextDecoder();
  let rest = '';
  const reader = body.getReader();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw new ExchangeNetworkError('network_error', 'GET', where, err);
      }
      if (chunk.done) break;
      rest += decoder.decode(chunk.value, { stream: true });
      let newline = rest.indexOf('\n');
      while (newline >= 0) {
        const line = rest.slice(0, newline);
        rest = rest.slice(newline + 1);
        if (line.trim() !== '') yield JSON.parse(line) as T;
        newline = rest.indexOf('\n');
      }
    }
    rest += decoder.decode();
    if (rest.trim() !== '') throw new ExchangeNetworkError('network_error', 'GET', where, new Error('the export ended in the middle of a line (cut off)'));
  } finally {
    await reader.cancel().catch(() => undefined); // no-op after the end; stops a stream left early
  }
}

export class TelemetryApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/telemetry/matching-signals → 201, or 200 with `duplicate: true` for a signal recorded before. */
  recordMatchingSignal(input: RecordMatchingSignalInput): Promise<MatchingSignal> {
    const body = {
      signal: input.signal,
      contract_id: input.contractId,
      seller_id: input.sellerId,
      listing_id: input.listingId,
      request_id: input.requestId,
      occurred_at: input.occurredAt === undefined ? undefined : iso(input.occurredAt),
    } satisfies api.RecordMatchingSignalRequest;
    return this.transport.request({ method: 'POST', path: '/v1/telemetry/matching-signals', body: compact(body) });
  }

  listCategories(params: PageParams = {}): Promise<Page<Category>> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/categories', query: { limit: params.limit, cursor: params.cursor } });
  }

  iterateCategories(params: Omit<PageParams, 'cursor'> = {}): AsyncGenerator<Category, void, undefined> {
    return paginate((cursor) => this.listCategories({ ...params, cursor }));
  }

  /** GET /v1/telemetry/category/{tag}: the tag's counts and a page of its objects (404 category_not_found). */
  listCategoryObjects(tag: string, params: PageParams & { kind?: CategoryObject['kind'] } = {}): Promise<CategoryObjectPage> {
    return this.transport.request({
      method: 'GET',
      path: `/v1/telemetry/category/${pathSegment(tag)}`,
      query: { kind: params.kind, limit: params.limit, cursor: params.cursor },
    });
  }

  /** Public events: private parties as their alias, no actor. */
  listPublicEvents(filter: EventFilter & PageParams = {}): Promise<Page<PublicEvent>> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/events/public', query: { ...filterQuery(filter), limit: filter.limit, cursor: filter.cursor } });
  }

  iteratePublicEvents(filter: EventFilter & Omit<PageParams, 'cursor'> = {}): AsyncGenerator<PublicEvent, void, undefined> {
    return paginate((cursor) => this.listPublicEvents({ ...filter, cursor }));
  }

  /** Operator: complete events. */
  listOperatorEvents(filter: EventFilter & PageParams = {}): Promise<Page<OperatorEvent>> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/events/operator', query: { ...filterQuery(filter), limit: filter.limit, cursor: filter.cursor } });
  }

  iterateOperatorEvents(filter: EventFilter & Omit<PageParams, 'cursor'> = {}): AsyncGenerator<OperatorEvent, void, undefined> {
    return paginate((cursor) => this.listOperatorEvents({ ...filter, cursor }));
  }

  /** Operator: the export's JSONL bytes as they stream (a refusal rejects with ExchangeApiError before any byte). */
  async exportOperatorEventsStream(filter: EventFilter = {}, opts: ExportOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const res = await this.transport.openStream({ method: 'GET', path: '/v1/telemetry/events/operator/export', query: filterQuery(filter), signal: opts.signal });
    return res.body;
  }

  /** Operator: every matching event, parsed line by line as the export streams (constant memory). */
  async *exportOperatorEvents(filter: EventFilter = {}, opts: ExportOptions = {}): AsyncGenerator<OperatorEvent, void, undefined> {
    yield* parseJsonl<OperatorEvent>(await this.exportOperatorEventsStream(filter, opts), '/v1/telemetry/events/operator/export');
  }

  /** Operator: the contract's events in order (404 contract_not_found when none was recorded). */
  getContractTimeline(contractId: string, params: PageParams = {}): Promise<ContractTimeline> {
    return this.transport.request({ method: 'GET', path: timelinePath(contractId), query: { limit: params.limit, cursor: params.cursor } });
  }

  async exportContractTimelineStream(contractId: string, opts: ExportOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const res = await this.transport.openStream({ method: 'GET', path: timelinePath(contractId, '/export'), signal: opts.signal });
    return res.body;
  }

  async *exportContractTimeline(contractId: string, opts: ExportOptions = {}): AsyncGenerator<OperatorEvent, void, undefined> {
    yield* parseJsonl<OperatorEvent>(await this.exportContractTimelineStream(contractId, opts), timelinePath(contractId, '/export'));
  }

  /** Operator: one UTC week; `weekStart` a Monday `YYYY-MM-DD` (default the last complete week). */
  getWeeklyReport(params: { weekStart?: string; includeSandbox?: boolean } = {}): Promise<WeeklyReport> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/reports/weekly', query: { week_start: params.weekStart, include_sandbox: params.includeSandbox } });
  }

  getMarketIntegrityRollup(query: RollupQuery = {}): Promise<MarketIntegrityRollup> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/rollups/market-integrity', query: rollupQuery(query) });
  }

  getBytesToAtomsRollup(query: RollupQuery = {}): Promise<BytesToAtomsRollup> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/rollups/bytes-to-atoms', query: rollupQuery(query) });
  }

  getCoordinationRollup(query: RollupQuery = {}): Promise<CoordinationRollup> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/rollups/coordination', query: rollupQuery(query) });
  }

  /** GET /v1/telemetry/verification?window=… (default all): the market's verification metrics. */
  verification(window?: VerificationWindow): Promise<VerificationMetrics> {
    return this.transport.request({ method: 'GET', path: '/v1/telemetry/verification', query: { window } });
  }

  /** GET /v1/metrics/outcomes (any agent). */
  getOutcomeMetrics(query: OutcomeQuery = {}): Promise<OutcomeMetrics> {
    return this.transport.request({ method: 'GET', path: '/v1/metrics/outcomes', query: { ...rollupQuery(query), merchant_id: query.merchantId, agent_id: query.agentId } });
  }
}
