import { findFreePort } from '@exchange/db';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { run } from './run';

// The CLI end to end minus the process: a local HTTP server plays the gateway.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let url: string;
let handler: Handler;

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

const report = {
  ok: true,
  accounts_checked: 4,
  entries_checked: 2,
  postings_checked: 4,
  global_sums: { CREDIT: '0' },
  discrepancies: [],
  checked_at: '2026-11-21T18:00:00.000Z',
};

function answer(status: number, body: unknown, seen?: IncomingMessage[]): Handler {
  return (req, res) => {
    seen?.push(req);
    res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'application/problem+json' });
    res.end(JSON.stringify(body));
  };
}

describe('ledger:check through the gateway', () => {
  it('asks GET /v1/ledger/check with the operator token and exits 0 on a consistent ledger', async () => {
    const seen: IncomingMessage[] = [];
    handler = answer(200, report, seen);
    const c = capture();
    expect(await run(['--url', url, '--token', 'op-token'], {}, c.io)).toBe(0);
    expect(seen.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([['GET', '/v1/ledger/check', 'Bearer op-token']]);
    expect(c.out.join('\n')).toContain('Result: OK');
    expect(c.err).toEqual([]);
  });

  it('exits 1 and lists the discrepancies', async () => {
    handler = answer(200, { ...report, ok: false, discrepancies: [{ kind: 'negative_available', subject: 'a:agent:b CREDIT', expected: '>= 0', actual: '-1', detail: '' }] });
    const c = capture();
    expect(await run(['--url', url, '--token', 't'], {}, c.io)).toBe(1);
    expect(c.out.join('\n')).toContain('1. negative_available  a:agent:b CREDIT');
  });

  it('prints JSON with --json', async () => {
    handler = answer(200, report);
    const c = capture();
    expect(await run(['--json'], { EXCHANGE_URL: url, OPERATOR_TOKEN: 't' }, c.io)).toBe(0);
    expect(JSON.parse(c.out.join(''))).toMatchObject({ consistent: true, accounts_checked: 4, source: `GET ${url}/v1/ledger/check` });
  });

  it('exits 2 when the gateway refuses the token, saying why', async () => {
    handler = answer(403, { status: 403, code: 'forbidden', detail: 'not an operator token' });
    const c = capture();
    expect(await run(['--url', url, '--token', 'bad'], {}, c.io)).toBe(2);
    expect(c.err.join('\n')).toContain('the gateway answered 403: forbidden (not an operator token)');
  });

  it('exits 2 when something else answers', async () => {
    handler = (_req, res) => res.end('<html>proxy</html>');
    const c = capture();
    expect(await run(['--url', url, '--token', 't', '--json'], {}, c.io)).toBe(2);
    expect(JSON.parse(c.out.join(''))).toMatchObject({ reachable: false });
    expect(c.err.join('\n')).toContain('not a ledger report');
  });

  it('exits 2 when nothing answers before the timeout', async () => {
    handler = () => undefined; // never answers
    const c = capture();
    expect(await run(['--url', url, '--token', 't', '--timeout', '200'], {}, c.io)).toBe(2);
    expect(c.err.join('\n')).toContain('no answer before the timeout');
  });

  it('exits 2 when nothing listens', async () => {
    const port = await findFreePort();
    const c = capture();
    expect(await run(['--url', `http://127.0.0.1:${port}`, '--token', 't'], {}, c.io)).toBe(2);
    expect(c.err.join('\n')).toContain('cannot reach the gateway');
  });
});

describe('ledger:check over gRPC', () => {
  it('exits 2 when no wallet-ledger listens at the address', async () => {
    const port = await findFreePort();
    const c = capture();
    expect(await run(['--grpc', `127.0.0.1:${port}`, '--timeout', '3000'], {}, c.io)).toBe(2);
    expect(c.err.join('\n')).toMatch(/CheckLedger at 127\.0\.0\.1:\d+ failed: (unavailable|deadline_exceeded)/);
  });
});

describe('ledger:check usage', () => {
  it('exits 2 with the usage on a bad command line, 0 on --help', async () => {
    const bad = capture();
    expect(await run(['--bogus'], {}, bad.io)).toBe(2);
    expect(bad.err.join('\n')).toContain('Usage: npm run ledger:check');
    const help = capture();
    expect(await run(['--help'], {}, help.io)).toBe(0);
    expect(help.out.join('\n')).toContain('Exit code: 0 consistent, 1 discrepancies, 2 cannot reach');
  });
});
