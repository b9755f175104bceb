import { jsonlChunks, type EventPageReader } from './jsonl-export';
import type { EventKey, OperatorEvent } from './stored-event';

function event(i: number, dataJson = '{}'): OperatorEvent {
  return {
    seq: String(i),
    eventId: `evt_${i}`,
    type: 'exchange.market.contract.created',
    source: 'market',
    subjectId: `ctr_${i}`,
    occurredAt: new Date(Date.UTC(2026, 10, 25, 0, 0, 0, i)),
    actor: null,
    dataJson,
    traceId: null,
    contractId: `ctr_${i}`,
    listingId: null,
    recordedAt: new Date(Date.UTC(2026, 10, 25)),
  };
}

/** A store of `n` events read by seq, recording every page asked for. */
function store(n: number, dataJson?: string) {
  const all = Array.from({ length: n }, (_, i) => event(i + 1, dataJson));
  const asked: Array<{ after: EventKey | null; limit: number }> = [];
  const read: EventPageReader = async (after, limit) => {
    asked.push({ after, limit });
    const from = after === null ? 0 : Number(after.seq);
    return all.slice(from, from + limit);
  };
  return { read, asked };
}

async function collect(gen: AsyncGenerator<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of gen) out.push(chunk);
  return out;
}

describe('jsonlChunks', () => {
  it('every event once, in order, in chunks of whole lines no bigger than the limit', async () => {
    const { read, asked } = store(1234);
    const chunks = await collect(jsonlChunks(read, { pageRows: 100, chunkBytes: 4096 }));
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(4096);
      expect(c.toString().endsWith('\n')).toBe(true);
    }
    const ids = Buffer.concat(chunks).toString().trimEnd().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toEqual(Array.from({ length: 1234 }, (_, i) => `evt_${i + 1}`));
    // 13 pages: the last short one ends the export; each asks after the previous page's last event.
    expect(asked).toHaveLength(13);
    expect(asked[1].after?.seq).toBe('100');
  });

  it('reads the next page only when the consumer asks for more', async () => {
    const { read, asked } = store(10_000);
    const gen = jsonlChunks(read, { pageRows: 500, chunkBytes: 64 * 1024 });
    await gen.next();
    expect(asked).toHaveLength(1);
    await gen.return(undefined);
  });

  it('nothing to export: no chunk; a line longer than a chunk goes alone', async () => {
    expect(await collect(jsonlChunks(store(0).read))).toEqual([]);
    const big = `{"blob":"${'x'.repeat(5000)}"}`;
    const chunks = await collect(jsonlChunks(store(3, big).read, { chunkBytes: 1024 }));
    expect(chunks).toHaveLength(3);
  });
});
