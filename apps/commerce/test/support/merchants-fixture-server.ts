import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A tiny local HTTP server playing a misbehaving (or hand-crafted) merchant: each test sets what a
// path answers, and every request is kept (method, path, headers, raw body) for assertions.

export interface FixtureRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export type FixtureHandler = (req: FixtureRequest, res: ServerResponse) => void | Promise<void>;

export interface FixtureServer {
  url: string;
  /** What `METHOD /path` (or `/path` for any method) answers; unset paths answer 404. */
  on(route: string, handler: FixtureHandler): void;
  requests: FixtureRequest[];
  /** Requests to a path (any method). */
  hits(path: string): FixtureRequest[];
  close(): Promise<void>;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): FixtureHandler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
};

export const text = (status: number, body: string): FixtureHandler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
};

export const redirect = (location: string): FixtureHandler => (_req, res) => {
  res.writeHead(302, { location }).end();
};

/** Answers after `ms` (a merchant slower than the exchange's timeout). */
export const slow = (ms: number, then: FixtureHandler): FixtureHandler => async (req, res) => {
  await new Promise((r) => setTimeout(r, ms).unref());
  if (!res.destroyed) await then(req, res);
};

export async function startFixtureServer(): Promise<FixtureServer> {
  const routes = new Map<string, FixtureHandler>();
  const requests: FixtureRequest[] = [];
  const server = createServer((raw: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const path = (raw.url ?? '/').split('?')[0] ?? '/';
      const headers: Record<string, string> = {};
      for (let i = 0; i + 1 < raw.rawHeaders.length; i += 2) headers[raw.rawHeaders[i]!.toLowerCase()] = raw.rawHeaders[i + 1]!;
      const req: FixtureRequest = { method: raw.method ?? 'GET', path, headers, body: Buffer.concat(chunks) };
      requests.push(req);
      const handler = routes.get(`${req.method} ${path}`) ?? routes.get(path);
      if (!handler) return void res.writeHead(404).end();
      Promise.resolve(handler(req, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    on: (route, handler) => void routes.set(route, handler),
    requests,
    hits: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
