// Test helper: a real HTTP server on an ephemeral port that records each request (raw body bytes
// included) and answers from a queue of canned responses.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path with query string, exactly as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface CannedResponse {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as-is. */
  body?: unknown;
}

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** Queue responses, answered in order; when the queue is empty `fallback` answers. */
  respond(...responses: Array<CannedResponse | ((req: RecordedRequest) => CannedResponse)>): void;
  close(): Promise<void>;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): CannedResponse => ({
  status,
  body,
  headers: { 'content-type': 'application/json', ...headers },
});

export const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): CannedResponse => ({
  status,
  headers: { 'content-type': 'application/problem+json', ...headers },
  body: { type: `https://agent-exchange.dev/errors/${code}`, title: extra['title'] ?? 'Error', status, detail, code, ...extra },
});

export async function startRecordingServer(fallback: CannedResponse = { status: 500, body: 'no canned response' }): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queue: Array<CannedResponse | ((req: RecordedRequest) => CannedResponse)> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      const next = queue.shift() ?? fallback;
      const canned = typeof next === 'function' ? next(recorded) : next;
      const payload = canned.body === undefined ? '' : typeof canned.body === 'string' ? canned.body : JSON.stringify(canned.body);
      res.writeHead(canned.status, { 'x-request-id': `req_test_${requests.length}`, ...canned.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (...responses) => queue.push(...responses),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
