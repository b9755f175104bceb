// One HTTP exchange with a merchant, bounded: no redirects followed, one deadline covering the
// answer and its body, and a body size cap (a merchant cannot make us buffer without limit).

export type HttpExchange =
  | { kind: 'response'; status: number; headers: Record<string, string>; text: string }
  /** The body went past `maxBytes` (status and headers are known). */
  | { kind: 'too_large'; status: number; headers: Record<string, string> }
  | { kind: 'timeout' }
  | { kind: 'network'; reason: string };

export interface BoundedFetchOptions {
  fetch: typeof fetch;
  timeoutMs: number;
  maxBytes: number;
}

export interface HttpRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Response headers by lower-case name (repeats joined as fetch joins them). */
function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

async function readCapped(response: Response, maxBytes: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function boundedFetch(url: string, init: HttpRequestInit, opts: BoundedFetchOptions): Promise<HttpExchange> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  try {
    const response = await opts.fetch(url, { method: init.method, headers: init.headers, body: init.body, redirect: 'manual', signal: controller.signal });
    const headers = headersOf(response);
    const text = await readCapped(response, opts.maxBytes);
    if (text === null) return { kind: 'too_large', status: response.status, headers };
    return { kind: 'response', status: response.status, headers, text };
  } catch (err) {
    if (timedOut) return { kind: 'timeout' };
    return { kind: 'network', reason: networkReason(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** undici wraps the real cause (ECONNREFUSED, ENOTFOUND, a TLS error…): name that, briefly. */
function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message.slice(0, 200);
  return err instanceof Error ? err.message.slice(0, 200) : 'network error';
}
