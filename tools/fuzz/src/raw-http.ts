// A minimal HTTP/1.1 client over a plain socket. fetch and http.request normalise or refuse what
// a hostile client sends (`..` segments, bad percent-encoding, raw bytes in headers, a missing
// body on POST); here the request line, headers and body go out exactly as generated.
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** Path and query as written on the request line. */
  target: string;
  /** Header values are written as latin-1 bytes. */
  headers: Array<[string, string]>;
  body: Buffer | null;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export type SendResult = { ok: true; response: RawResponse; ms: number } | { ok: false; error: string; ms: number };

/** The request bytes: Host and Connection: close first, Content-Length unless chunked or no body. */
export function serializeRequest(req: RawRequest, host: string): Buffer {
  const names = new Set(req.headers.map(([n]) => n.toLowerCase()));
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  if (req.body !== null && !names.has('transfer-encoding') && !names.has('content-length')) lines.push(`Content-Length: ${req.body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return req.body ? Buffer.concat([head, req.body]) : head;
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', pos);
    if (eol < 0) break;
    const size = parseInt(data.subarray(pos, eol).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    pos = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Parses everything a server sent on a closed connection; interim 1xx answers are skipped. */
export function parseResponse(data: Buffer, method: string): RawResponse | null {
  let start = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start);
    if (end < 0) return null;
    const [statusLine, ...headerLines] = data.subarray(start, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!match) return null;
    const status = Number(match[1]);
    if (status >= 100 && status < 200) {
      start = end + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let body = data.subarray(end + 4);
    if (method === 'HEAD' || status === 204 || status === 304) body = Buffer.alloc(0);
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
    else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
    return { status, headers, body };
  }
}

/**
 * Sends one request on a new connection and reads until the server closes it. `localAddress`:
 * the loopback address to send from (127.0.0.0/8 is all loopback on Linux), so requests can come
 * from several client IPs.
 */
export function sendRaw(host: string, port: number, req: RawRequest, timeoutMs: number, localAddress?: string): Promise<SendResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const ms = Date.now() - started;
      // A server may answer (413, 400) and close before reading the whole body: the answer counts.
      const response = parseResponse(Buffer.concat(chunks), req.method.toUpperCase());
      if (response) resolve({ ok: true, response, ms });
      else resolve({ ok: false, error: error ?? (chunks.length === 0 ? 'connection closed without a response' : 'unparsable response'), ms });
    };
    const socket = connect({ host, port, ...(localAddress ? { localAddress } : {}) });
    socket.setTimeout(timeoutMs, () => finish(`no response within ${timeoutMs} ms`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // EPIPE/ECONNRESET while still writing: keep reading what the server already answered.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') setTimeout(() => finish(`${err.code}`), 50);
      else finish(err.code ?? err.message);
    });
    // Written, not ended: Node's HTTP server aborts a request whose client half-closes early.
    socket.on('connect', () => socket.write(serializeRequest(req, `${host}:${port}`)));
  });
}
