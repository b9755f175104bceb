import { ExchangeClient } from './client';
import { ExchangeApiError } from './errors';
import { idempotencyOf } from './idempotency';
import { meterEventSigningText, signMeterEvent } from './metering';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';
import { nodeKeyPair, nodeVerify } from './testing/node-ed25519';

// Metering, billing and the gateway proxy against a recording server: the signed meter event
// (checked with node:crypto, not @exchange/crypto), paths and snake_case bodies, 201/200 as
// `created`, the proxy call's idempotency key, and problems (402) as ExchangeApiError.

const T = '2026-11-25T10:00:00.000Z';
const payload = { meter: 'llm.tokens', subject_agent_id: 'acme:agent:subject', quantity: 1200, unit: 'token', occurred_at: new Date(T), epoch: 'e1' };

describe('signMeterEvent', () => {
  it('signs the canonical JSON of the payload (keys sorted, date as RFC 3339 ms Z, no ref when absent)', () => {
    const keys = nodeKeyPair();
    const signed = signMeterEvent(payload, keys.privateKey);
    const text = '{"epoch":"e1","meter":"llm.tokens","occurred_at":"2026-11-25T10:00:00.000Z","quantity":1200,"subject_agent_id":"acme:agent:subject","unit":"token"}';
    expect(meterEventSigningText(payload)).toBe(text);
    expect(signed.payload).toEqual({ ...payload, occurred_at: T });
    expect(nodeVerify(text, signed.signature, keys.publicKey)).toBe(true);
    expect(nodeVerify(text.replace('1200', '1201'), signed.signature, keys.publicKey)).toBe(false);
  });

  it('includes ref when given', () => {
    expect(meterEventSigningText({ ...payload, ref: 'r-1' })).toContain('"quantity":1200,"ref":"r-1","subject_agent_id"');
  });
});

describe('metering, billing and gateway proxy APIs', () => {
  let server: RecordingServer;
  const keys = nodeKeyPair();
  const agentId = 'acme:agent:reporter';
  let agent: ExchangeClient;
  let operator: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    agent = new ExchangeClient({ baseUrl: server.url, agent: { agentId, privateKey: keys.privateKey } });
    operator = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  const last = () => server.requests.at(-1)!;
  const lastBody = () => JSON.parse(last().body.toString('utf8'));

  it('ingests a meter event signed with the client’s agent key, 201 as created and 200 as not', async () => {
    server.respond(json(201, { object_id: 'sha256:x' }), json(200, { object_id: 'sha256:x' }));
    const first = await agent.metering.ingest({ payload });
    expect(first).toEqual({ event: { object_id: 'sha256:x' }, created: true });
    const body = lastBody();
    expect(last().url).toBe('/v1/meter_events/ingest');
    expect(body.signer_agent_id).toBe(agentId);
    expect(body.payload).toEqual({ ...payload, occurred_at: T });
    expect(nodeVerify(meterEventSigningText(payload), body.signature, keys.publicKey)).toBe(true);
    expect((await agent.metering.ingest({ payload })).created).toBe(false);
  });

  it('sends a ready signature as given, and needs the signer id with it', async () => {
    server.respond(json(201, {}));
    await operator.metering.ingest({ payload, signature: 'c2ln', signerAgentId: agentId });
    expect(lastBody()).toEqual({ signer_agent_id: agentId, payload: { ...payload, occurred_at: T }, signature: 'c2ln' });
    await expect(operator.metering.ingest({ payload, signature: 'c2ln' })).rejects.toThrow(/signerAgentId/);
  });

  it('reads events and tables, and creates a table with RFC 3339 bounds', async () => {
    server.respond(json(200, {}), json(201, { object_id: 'sha256:t' }), json(200, {}));
    await agent.metering.get('sha256:abc');
    expect(last().url).toBe('/v1/meter_events/sha256:abc');
    const created = await operator.metering.createEpochTable({ epoch: 'e1', effectiveFrom: new Date('2026-11-01T00:00:00Z'), effectiveTo: '2026-12-01T00:00:00.000Z', prices: { m: '0.1' } });
    expect(created.created).toBe(true);
    expect(lastBody()).toEqual({ epoch: 'e1', effective_from: '2026-11-01T00:00:00.000Z', effective_to: '2026-12-01T00:00:00.000Z', prices: { m: '0.1' } });
    await operator.metering.getEpochTable('sha256:t');
    expect(last().url).toBe('/v1/meter_epoch_tables/sha256:t');
  });

  it('drives billing: projection, attach, emit (created or not) and both reconciliation forms', async () => {
    server.respond(json(201, { projection_id: 'prj_1' }), json(200, {}), json(201, { status: 'emitted' }), json(200, { status: 'emitted' }), json(200, {}), json(200, {}));
    expect((await operator.billing.createProjection('acme:agent:s', '2026-11')).projection_id).toBe('prj_1');
    expect({ url: last().url, body: lastBody() }).toEqual({ url: '/v1/billing/projections', body: { agent_id: 'acme:agent:s', period: '2026-11' } });
    await operator.billing.attach('prj_1');
    expect({ url: last().url, body: lastBody() }).toEqual({ url: '/v1/billing/projections/attach', body: { projection_id: 'prj_1' } });
    expect((await operator.billing.emit('acme:agent:s', '2026-11')).created).toBe(true);
    expect((await operator.billing.emit('acme:agent:s', '2026-11')).created).toBe(false);
    expect(last().url).toBe('/v1/billing/receipts/emit');
    await operator.billing.reconcile({ periodReceiptId: 'prc_1' });
    expect(lastBody()).toEqual({ period_receipt_id: 'prc_1' });
    await operator.billing.reconcile({ receipt: { payload: { a: 1 }, signature: 'c2ln' } });
    expect(lastBody()).toEqual({ receipt: { payload: { a: 1 }, signature: 'c2ln' } });
  });

  it('records a proxy call with an idempotency key (its own or one made here) and reads a replay', async () => {
    server.respond(json(201, { call_id: 'pxc_1' }), json(201, { call_id: 'pxc_1' }, { 'idempotent-replayed': 'true' }));
    const input = { agentId, runId: 'run-1', upstream: 'api.x', operation: 'GET /', cost: '1', requestSha256: 'a'.repeat(64), responseSha256: 'b'.repeat(64), status: 200, latencyMs: 5, holdId: 'hld_1' };
    const first = await agent.gatewayProxy.recordCall(input);
    const sent = lastBody();
    expect(sent).toEqual({
      agent_id: agentId,
      run_id: 'run-1',
      upstream: 'api.x',
      operation: 'GET /',
      cost: '1',
      request_sha256: 'a'.repeat(64),
      response_sha256: 'b'.repeat(64),
      status: 200,
      latency_ms: 5,
      hold_id: 'hld_1',
      idempotency_key: expect.stringMatching(/^sdk-/),
    });
    expect(idempotencyOf(first)).toMatchObject({ replayed: false, status: 201 });
    const again = await agent.gatewayProxy.recordCall({ ...input, idempotencyKey: 'k-1' });
    expect(lastBody().idempotency_key).toBe('k-1');
    expect(idempotencyOf(again)).toMatchObject({ key: 'k-1', replayed: true });
  });

  it('surfaces 402 budget_exceeded as an ExchangeApiError with the key attached', async () => {
    server.respond(problem(402, 'budget_exceeded', 'over budget', { remaining: '0' }));
    const err = await agent.gatewayProxy
      .recordCall({ agentId, runId: 'r', upstream: 'u', operation: 'o', cost: '1', requestSha256: 'a'.repeat(64), responseSha256: 'a'.repeat(64), status: 200, latencyMs: 1, mandateId: 'mdt_1', idempotencyKey: 'k-2' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect(err).toMatchObject({ status: 402, code: 'budget_exceeded', idempotencyKey: 'k-2' });
  });

  it('exports a run casefile and reads metrics with the query in snake_case', async () => {
    server.respond(json(200, { docket_id: 'dkt_1' }), json(200, { window: '1d', data: [] }));
    expect((await agent.gatewayProxy.exportCasefile(agentId, 'run-1')).docket_id).toBe('dkt_1');
    expect({ url: last().url, body: lastBody() }).toEqual({ url: '/v1/gateway/casefiles/export', body: { agent_id: agentId, run_id: 'run-1' } });
    await operator.gatewayProxy.metrics({ window: '1d', asOf: new Date(T), upstream: 'api.x' });
    expect(last().url).toBe('/v1/gateway/metrics?window=1d&as_of=2026-11-25T10%3A00%3A00.000Z&upstream=api.x');
  });
});
