import { ExchangeClient } from './client';
import { ExchangeApiError, ExchangeNetworkError } from './errors';
import { parseJsonl } from './telemetry';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';

// The telemetry API against a recording server: paths, queries (dates as RFC 3339, absent
// filters absent), bodies, the JSONL exports parsed line by line, and problems.

const streamOf = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const v of it) out.push(v);
  return out;
}

describe('parseJsonl', () => {
  it('parses lines split anywhere across chunks, multi-byte characters included', async () => {
    const text = '{"a":1,"s":"é"}\n{"a":2}\n';
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 3) c.enqueue(bytes.subarray(i, i + 3));
        c.close();
      },
    });
    expect(await collect(parseJsonl(stream))).toEqual([{ a: 1, s: 'é' }, { a: 2 }]);
  });

  it('refuses a stream cut in the middle of a line', async () => {
    await expect(collect(parseJsonl(streamOf('{"a":1}\n{"a":'))) ).rejects.toBeInstanceOf(ExchangeNetworkError);
  });
});

describe('telemetry API', () => {
  let server: RecordingServer;
  let client: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    client = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  const last = () => server.requests.at(-1)!;

  it('records a matching signal with a snake_case body and absent optionals absent', async () => {
    server.respond(json(201, { signal_id: 'sig_1', duplicate: false }));
    const res = await client.telemetry.recordMatchingSignal({ signal: 'click', contractId: 'ctr_1', sellerId: 'a:agent:s', occurredAt: new Date('2026-11-25T10:00:00Z') });
    expect(res.signal_id).toBe('sig_1');
    expect({ method: last().method, url: last().url, body: JSON.parse(last().body.toString('utf8')) }).toEqual({
      method: 'POST',
      url: '/v1/telemetry/matching-signals',
      body: { signal: 'click', contract_id: 'ctr_1', seller_id: 'a:agent:s', occurred_at: '2026-11-25T10:00:00.000Z' },
    });
  });

  it('lists events with the filters as query parameters and walks every page', async () => {
    server.respond(json(200, { data: [{ id: 'e1' }], next_cursor: 'c2' }), json(200, { data: [{ id: 'e2' }], next_cursor: null }));
    const events = await collect(client.telemetry.iteratePublicEvents({ contractId: 'ctr_1', eventType: 'exchange.market.contract.*', from: new Date('2026-11-01T00:00:00Z'), limit: 1 }));
    expect(events.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/telemetry/events/public?contract_id=ctr_1&event_type=exchange.market.contract.*&from=2026-11-01T00%3A00%3A00.000Z&limit=1',
      '/v1/telemetry/events/public?contract_id=ctr_1&event_type=exchange.market.contract.*&from=2026-11-01T00%3A00%3A00.000Z&limit=1&cursor=c2',
    ]);
  });

  it('reads categories, timelines, the weekly report, rollups and outcomes at their paths', async () => {
    for (let i = 0; i < 8; i++) server.respond(json(200, {}));
    await client.telemetry.listCategories({ limit: 5 });
    await client.telemetry.listCategoryObjects('translation', { kind: 'contract' });
    await client.telemetry.getContractTimeline('ctr_1', { cursor: 'x' });
    await client.telemetry.getWeeklyReport({ weekStart: '2026-11-16', includeSandbox: true });
    await client.telemetry.getMarketIntegrityRollup({ window: '30d', asOf: '2026-11-20T00:00:00Z' });
    await client.telemetry.getBytesToAtomsRollup();
    await client.telemetry.getCoordinationRollup({ window: 'all' });
    await client.telemetry.getOutcomeMetrics({ window: '1d', agentId: 'a:agent:b', merchantId: 'm.example' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/telemetry/categories?limit=5',
      '/v1/telemetry/category/translation?kind=contract',
      '/v1/telemetry/contracts/ctr_1/timeline?cursor=x',
      '/v1/telemetry/reports/weekly?week_start=2026-11-16&include_sandbox=true',
      '/v1/telemetry/rollups/market-integrity?window=30d&as_of=2026-11-20T00%3A00%3A00Z',
      '/v1/telemetry/rollups/bytes-to-atoms',
      '/v1/telemetry/rollups/coordination?window=all',
      '/v1/metrics/outcomes?window=1d&merchant_id=m.example&agent_id=a%3Aagent%3Ab',
    ]);
  });

  it('exports operator events as parsed lines, and the raw stream as bytes', async () => {
    const body = '{"id":"e1","seq":"1"}\n{"id":"e2","seq":"2"}\n';
    server.respond({ status: 200, headers: { 'content-type': 'application/x-ndjson' }, body }, { status: 200, headers: { 'content-type': 'application/x-ndjson' }, body });
    const events = await collect(client.telemetry.exportOperatorEvents({ listingId: 'lst_1', to: '2026-12-01T00:00:00Z' }));
    expect(events).toEqual([{ id: 'e1', seq: '1' }, { id: 'e2', seq: '2' }]);
    expect(last().url).toBe('/v1/telemetry/events/operator/export?listing_id=lst_1&to=2026-12-01T00%3A00%3A00Z');
    const raw = await client.telemetry.exportContractTimelineStream('ctr_1');
    expect(Buffer.from(await new Response(raw).arrayBuffer()).toString('utf8')).toBe(body);
    expect(last().url).toBe('/v1/telemetry/contracts/ctr_1/timeline/export');
  });

  it('rejects an export refused before its first line with the problem', async () => {
    server.respond(problem(403, 'operator_token_required', 'operator only'));
    const err = await collect(client.telemetry.exportContractTimeline('ctr_1')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect((err as ExchangeApiError).code).toBe('operator_token_required');
  });
});
