import { errors } from '@exchange/platform';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { CTR, jsonlLine, useTelemetryHarness, type FakeTelemetry } from './fake-telemetry';
import { expectProblem, operator, type Harness } from './harness';

// The JSONL exports over a real HTTP connection: telemetry's chunks reach the client as
// application/x-ndjson; a refusal before the first chunk is a problem, a failure after it aborts
// the response; a client that stops reading stops telemetry's stream (back-pressure), one that
// goes away cancels it.

let h: Harness;
let fake: FakeTelemetry;
let base: string;
useTelemetryHarness((started, f) => {
  h = started;
  fake = f;
});

beforeAll(async () => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});

const EXPORT = '/v1/telemetry/events/operator/export';
const chunkOf = (from: number, lines: number) => Buffer.from(Array.from({ length: lines }, (_, i) => jsonlLine(from + i)).join(''));

/** A GET as the operator whose response is handed over unread (the caller decides when to read). */
function open(path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers: operator() }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads the whole body; rejects when the connection is cut before the end. */
function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    res.on('end', () => (res.complete ? resolve(Buffer.concat(parts)) : reject(new Error('incomplete'))));
    res.on('aborted', () => reject(new Error('aborted')));
    res.on('error', reject);
  });
}

describe('GET /v1/telemetry/events/operator/export', () => {
  it('should stream every chunk as JSONL with the filters as sent', async () => {
    fake.exportPlan = { chunks: [chunkOf(1, 3), chunkOf(4, 2)] };
    const res = await open(`${EXPORT}?event_type=exchange.market.*&from=2026-11-01T00:00:00Z`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    const lines = (await readAll(res)).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual(['1', '2', '3', '4', '5']);
    expect(fake.lastCall('exportOperatorEvents').request).toEqual({
      actor: { agentId: '', operator: true },
      filter: { eventType: 'exchange.market.*', from: new Date('2026-11-01T00:00:00Z') },
    });
  });

  it('should answer an empty export with 200 and no body', async () => {
    fake.exportPlan = { chunks: [] };
    const res = await h.app.inject({ method: 'GET', url: EXPORT, headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.body).toBe('');
  });

  it('should answer a refusal before the first chunk as a problem', async () => {
    fake.exportPlan = { chunks: [chunkOf(1, 1)], failFirst: errors.invalidArgument('validation_failed', 'contract_id is not an id') };
    expectProblem(await h.app.inject({ method: 'GET', url: EXPORT, headers: operator() }), 400, 'validation_failed');
  });

  it('should abort the response when telemetry fails after the first chunk', async () => {
    fake.exportPlan = { chunks: [chunkOf(1, 2), chunkOf(3, 2), chunkOf(5, 2)], failAfter: 1 };
    const res = await open(EXPORT);
    expect(res.statusCode).toBe(200);
    await expect(readAll(res)).rejects.toThrow(/aborted|incomplete|socket hang up/);
  });

  it('should stop telemetry while the client does not read, and deliver everything once it reads', async () => {
    const total = 400; // 400 × 64 KiB = 25 MiB: more than every buffer on the way can hold
    const chunks = Array.from({ length: total }, (_, i) => Buffer.concat([chunkOf(i, 1), Buffer.alloc(64 * 1024 - jsonlLine(i).length - 1, ' '), Buffer.from('\n')]));
    let blockedAt = 0;
    const blocked = new Promise<void>((resolve) => (fake.exportPlan = { chunks, onBlocked: (n) => ((blockedAt = n), resolve()) }));
    const res = await open(EXPORT);
    res.pause();
    await blocked; // telemetry could not write on: the unread response held it back
    expect(blockedAt).toBeLessThan(total);
    res.resume();
    const body = await readAll(res);
    expect(body.length).toBe(total * 64 * 1024);
  });

  it('should cancel telemetry’s stream when the client goes away', async () => {
    const chunks = Array.from({ length: 400 }, (_, i) => Buffer.concat([Buffer.alloc(64 * 1024 - 1, ' '), Buffer.from('\n')]).fill(48 + (i % 10), 0, 1));
    const done = new Promise<{ written: number; cancelled: boolean }>((resolve) => {
      fake.exportPlan = { chunks, onDone: (written, cancelled) => resolve({ written, cancelled }) };
    });
    const res = await open(EXPORT);
    res.once('data', () => res.destroy());
    const outcome = await done;
    expect(outcome.cancelled).toBe(true);
    expect(outcome.written).toBeLessThan(400);
  });
});

describe('GET /v1/telemetry/contracts/{contract_id}/timeline/export', () => {
  it('should stream the timeline as JSONL', async () => {
    fake.exportPlan = { chunks: [chunkOf(1, 2)] };
    const res = await h.app.inject({ method: 'GET', url: `/v1/telemetry/contracts/${CTR}/timeline/export`, headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.body).toBe(jsonlLine(1) + jsonlLine(2));
    expect(fake.lastCall('exportContractTimeline').request).toEqual({ actor: { agentId: '', operator: true }, contractId: CTR });
  });

  it('should answer 404 contract_not_found before the first chunk as a problem', async () => {
    fake.exportPlan = { chunks: [], failFirst: errors.notFound('contract', 'ctr_x') };
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/telemetry/contracts/ctr_x/timeline/export', headers: operator() }), 404, 'contract_not_found');
  });
});
