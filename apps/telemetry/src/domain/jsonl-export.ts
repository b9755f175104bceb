import { operatorEventLine, type EventKey, type OperatorEvent } from './stored-event';

// A JSONL export without the whole result in memory: events are read one keyset page at a time
// and handed on as chunks of whole lines; the next page is read only when the consumer asks for
// the next chunk, so a slow reader holds back the reads (backpressure reaches the database).

/** Reads the page after `after` (null: the first), at most `limit` events, in export order. */
export type EventPageReader = (after: EventKey | null, limit: number) => Promise<OperatorEvent[]>;

export const EXPORT_PAGE_ROWS = 500;
export const EXPORT_CHUNK_BYTES = 64 * 1024;

export interface JsonlOptions {
  pageRows?: number;
  chunkBytes?: number;
}

/**
 * The events `readPage` yields, as JSONL chunks of whole lines: each at most `chunkBytes`
 * unless one line alone is longer.
 */
export async function* jsonlChunks(readPage: EventPageReader, options: JsonlOptions = {}): AsyncGenerator<Buffer> {
  const pageRows = options.pageRows ?? EXPORT_PAGE_ROWS;
  const chunkBytes = options.chunkBytes ?? EXPORT_CHUNK_BYTES;
  let lines: string[] = [];
  let bytes = 0;
  let after: EventKey | null = null;
  for (;;) {
    const page = await readPage(after, pageRows);
    for (const event of page) {
      const line = operatorEventLine(event);
      const size = Buffer.byteLength(line);
      if (bytes > 0 && bytes + size > chunkBytes) {
        yield Buffer.from(lines.join(''));
        lines = [];
        bytes = 0;
      }
      lines.push(line);
      bytes += size;
    }
    if (page.length < pageRows) break;
    const last = page[page.length - 1];
    after = { occurredAt: last.occurredAt, seq: last.seq };
  }
  if (bytes > 0) yield Buffer.from(lines.join(''));
}
