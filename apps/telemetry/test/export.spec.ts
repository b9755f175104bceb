// ExportOperatorEvents: JSONL streamed in chunks of whole lines with backpressure, read page by
// page from the store — every line once, in store order, to a client that reads slowly.
import { status, type ServiceError } from '@grpc/grpc-js';
import type { EventEnvelope } from '@exchange/events';
import { errorInfoFromGrpc } from '@exchange/platform';
import { walletV1, walletV1Events, type telemetryV1 } from '@exchange/proto';
import { envelope, newParties, publicFixtures } from './ingest-fixtures';
import { AGENT, linesOf, OPERATOR, readExport, startFeedsHarness, type FeedsHarness } from './feeds.harness';

const EVENTS = 5000;
let h: FeedsHarness;
let holds: EventEnvelope[];
let others: EventEnvelope[];

function holdEvent(i: number): EventEnvelope {
  const at = new Date(Date.UTC(2026, 10, 1) + i * 1000);
  const hold = walletV1.Hold.fromPartial({
    holdId: `hld_export_${i}`, agentId: `agt_${i % 97}`, amount: `${i}.5`, currency: 'CREDIT', status: 1,
    reference: `budget for batch ${i} — ünïcode ✓`, controller: 'market', createdAt: at, updatedAt: at,
  });
  return envelope('exchange.wallet.hold.created', hold.holdId, walletV1Events.HoldChanged.toJSON({ hold }), at, 'system:market');
}

beforeAll(async () => {
  h = await startFeedsHarness('telemetry_export');
  holds = Array.from({ length: EVENTS }, (_, i) => holdEvent(i));
  others = Object.values(publicFixtures(newParties('export')));
  // Interleaved, so the type filter has something to leave out on every page.
  await h.seed([...others.slice(0, 10), ...holds.slice(0, 2500), ...others.slice(10), ...holds.slice(2500)]);
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

const exportOf = (req: telemetryV1.ExportOperatorEventsRequest) => h.streams.exportOperatorEvents(req);

async function failure(req: telemetryV1.ExportOperatorEventsRequest): Promise<{ grpcCode: number; code: string }> {
  try {
    await readExport(exportOf(req));
  } catch (err) {
    const info = errorInfoFromGrpc(err as ServiceError);
    return { grpcCode: info.grpcCode, code: info.code };
  }
  throw new Error('the export succeeded');
}

describe('ExportOperatorEvents', () => {
  it('streams 5,000 events to a slow reader: every line once, in store order, whole lines in ~64 KiB chunks', async () => {
    const chunks = await readExport(exportOf({ actor: OPERATOR, filter: { eventType: 'exchange.wallet.hold.created' } }), 15);
    const lines = linesOf(chunks);
    expect(lines.map((l) => l['id'])).toEqual(holds.map((e) => e.id));
    const seqs = lines.map((l) => BigInt(l['seq'] as string));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i] > seqs[i - 1]).toBe(true);
    expect(chunks.length).toBeGreaterThan(20);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(64 * 1024);
      expect(c[c.length - 1]).toBe(0x0a);
    }
    // Every chunk but the last is nearly full: lines are ~700 bytes.
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThan(60 * 1024);
  }, 60_000);

  it('each line is the operator event: the envelope as published, snake_case, plus seq and recorded_at', async () => {
    const lines = linesOf(await readExport(exportOf({ actor: OPERATOR, filter: { eventType: 'exchange.wallet.*', to: new Date(Date.UTC(2026, 10, 1) + 2000) } })));
    expect(lines).toHaveLength(2);
    const [first] = lines;
    const e = holds[0];
    expect(Object.keys(first)).toEqual(['id', 'type', 'source', 'subject_id', 'occurred_at', 'actor', 'data', 'trace_id', 'contract_id', 'listing_id', 'seq', 'recorded_at']);
    expect(first).toMatchObject({ id: e.id, type: e.type, source: 'wallet', subject_id: e.subject_id, occurred_at: e.occurred_at, actor: 'system:market', data: e.data, trace_id: e.trace_id });
    expect(typeof first['recorded_at']).toBe('string');
  });

  it('applies the same filters as the lists; an empty result is an empty stream', async () => {
    const market = linesOf(await readExport(exportOf({ actor: OPERATOR, filter: { eventType: 'exchange.market.*' } })));
    expect(market.map((l) => l['id'])).toEqual(others.map((e) => e.id));
    expect(await readExport(exportOf({ actor: OPERATOR, filter: { contractId: 'ctr_none' } }))).toEqual([]);
  });

  it('refuses an agent (operator_required) and a bad filter (validation_failed) before any byte', async () => {
    expect(await failure({ actor: AGENT, filter: {} })).toEqual({ grpcCode: status.PERMISSION_DENIED, code: 'operator_required' });
    expect(await failure({ actor: OPERATOR, filter: { eventType: '*' } })).toEqual({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed' });
  });

  it('a client that cancels mid-export ends the call; the service carries on', async () => {
    const call = exportOf({ actor: OPERATOR, filter: {} });
    const first = await new Promise<Buffer>((resolve, reject) => {
      call.once('data', (msg: { jsonl: Buffer }) => resolve(Buffer.from(msg.jsonl)));
      call.once('error', reject);
    });
    expect(first.length).toBeGreaterThan(0);
    const ended = new Promise<number>((resolve) => call.on('error', (err: ServiceError) => resolve(err.code)));
    call.cancel();
    expect(await ended).toBe(status.CANCELLED);
    const again = linesOf(await readExport(exportOf({ actor: OPERATOR, filter: { eventType: 'exchange.market.*' } })));
    expect(again).toHaveLength(others.length);
  });
});
