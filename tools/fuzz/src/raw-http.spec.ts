import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseResponse, sendRaw, serializeRequest } from './raw-http';

describe('serializeRequest', () => {
  it('writes the target verbatim, Content-Length for a body, latin-1 header bytes', () => {
    const bytes = serializeRequest({ method: 'POST', target: '/v1/a/%zz/../b', headers: [['X-Id', 'é']], body: Buffer.from('{}') }, 'h:1');
    expect(bytes.toString('latin1')).toBe('POST /v1/a/%zz/../b HTTP/1.1\r\nHost: h:1\r\nConnection: close\r\nX-Id: é\r\nContent-Length: 2\r\n\r\n{}');
    expect(bytes.includes(Buffer.from([0xe9]))).toBe(true);
  });

  it('sends no Content-Length without a body or when chunked', () => {
    expect(serializeRequest({ method: 'POST', target: '/', headers: [], body: null }, 'h').toString()).not.toMatch(/Content-Length/);
    expect(serializeRequest({ method: 'POST', target: '/', headers: [['Transfer-Encoding', 'chunked']], body: Buffer.from('0\r\n\r\n') }, 'h').toString()).not.toMatch(
      /Content-Length/,
    );
  });
});

describe('parseResponse', () => {
  it('reads status, headers and a Content-Length body, skipping 100 Continue', () => {
    const raw = Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nContent-Length: 2\r\nX-A: 1\r\nX-A: 2\r\n\r\n{}extra');
    expect(parseResponse(raw, 'POST')).toEqual({ status: 400, headers: { 'content-type': 'application/problem+json', 'content-length': '2', 'x-a': '1, 2' }, body: Buffer.from('{}') });
  });

  it('de-chunks a chunked body and ignores the body of HEAD', () => {
    const chunked = Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n');
    expect(parseResponse(chunked, 'GET')?.body.toString()).toBe('abcde');
    expect(parseResponse(Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\n'), 'HEAD')?.body.length).toBe(0);
  });

  it('returns null for an incomplete or non-HTTP answer', () => {
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-'), 'GET')).toBeNull();
    expect(parseResponse(Buffer.from('SSH-2.0\r\n\r\n'), 'GET')).toBeNull();
  });
});

describe('sendRaw', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ url: string; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', body });
        if (req.url === '/slow') return; // never answers
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ len: body.length }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('delivers the exact target and body and reads the answer', async () => {
    const result = await sendRaw('127.0.0.1', port, { method: 'POST', target: '/v1/x/%2e%2e/y', headers: [], body: Buffer.from('hello') }, 5000);
    expect(result.ok && result.response.status).toBe(201);
    expect(result.ok && JSON.parse(result.response.body.toString())).toEqual({ len: 5 });
    expect(seen.at(-1)).toEqual({ url: '/v1/x/%2e%2e/y', body: 'hello' });
  });

  it('reports a request the server never answers', async () => {
    const result = await sendRaw('127.0.0.1', port, { method: 'GET', target: '/slow', headers: [], body: null }, 300);
    expect(result).toMatchObject({ ok: false, error: 'no response within 300 ms' });
  });

  it('reports a refused connection', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const result = await sendRaw('127.0.0.1', closedPort, { method: 'GET', target: '/', headers: [], body: null }, 1000);
    expect(result).toMatchObject({ ok: false, error: 'ECONNREFUSED' });
  });
});
