import { canonicalize } from '@exchange/crypto';
import { walletV1Metering } from '@exchange/proto';
import { OBJ, PRC, PRJ, T0, useMeteringHarness } from './fake-wallet-metering';
import type { FakeWalletLedger } from './fake-wallet-ledger';
import { expectProblem, operator, signedRequest, type Harness, type TestAgent } from './harness';

// Metering and Billing over a wallet-ledger fake: what the gateway sends (the payload as its
// canonical JSON, the viewer, sorted prices, the reconciliation's oneof), the JSON shapes
// (quantity an integer, payloads parsed, lowercase enums, null for absent optionals), the auth
// modes (an agent ingests only as itself; epoch tables and billing are operator only) and the
// strict schemas (refused before any call).

let h: Harness;
let fake: FakeWalletLedger;
let reporter: TestAgent;
useMeteringHarness((started, f, agents) => {
  h = started;
  fake = f;
  reporter = agents[0]!;
});

const T = T0.toISOString();
const asOperator = (method: 'GET' | 'POST', url: string, payload?: object, extra: Record<string, string> = {}) =>
  h.app.inject({ method, url, headers: operator(extra), ...(payload ? { payload } : {}) });
const payload = (over: Record<string, unknown> = {}) => ({ meter: 'llm.tokens', subject_agent_id: 'acme:agent:subject', quantity: 1200, unit: 'token', occurred_at: T, epoch: 'e1', ...over });

describe('POST /v1/meter_events/ingest', () => {
  it('should send the payload as its canonical JSON and answer 201 with the priced event', async () => {
    // Keys deliberately out of order: the signature is over the canonical form, which the gateway rebuilds.
    const p = { unit: 'token', quantity: 1200, meter: 'llm.tokens', subject_agent_id: 'acme:agent:subject', occurred_at: T, epoch: 'e1', ref: 'first' };
    const res = await signedRequest(h.app, reporter, 'POST', '/v1/meter_events/ingest', { signer_agent_id: reporter.agentId, payload: p, signature: 'c2ln' });
    expect(res.statusCode).toBe(201);
    const sent = fake.lastCall<walletV1Metering.IngestMeterEventRequest>('ingestMeterEvent').request;
    expect(sent).toEqual({ signerAgentId: reporter.agentId, payloadJson: canonicalize(p), signature: 'c2ln' });
    expect(sent.payloadJson.startsWith('{"epoch":"e1","meter":"llm.tokens","occurred_at"')).toBe(true);
    const body = res.json();
    expect(body).toEqual({
      object_id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      type: 'meter_event',
      signer_agent_id: reporter.agentId,
      payload: p,
      signature: 'c2ln',
      meter: 'llm.tokens',
      subject_agent_id: 'acme:agent:subject',
      quantity: 1200,
      unit: 'token',
      occurred_at: T,
      epoch: 'e1',
      period: '2026-11',
      unit_price: '0.000125',
      currency: 'CREDIT',
      ingested_at: T,
    });
    expect(res.headers.location).toBe(`/v1/meter_events/${body.object_id}`);

    const again = await signedRequest(h.app, reporter, 'POST', '/v1/meter_events/ingest', { signer_agent_id: reporter.agentId, payload: p, signature: 'c2ln' });
    expect(again.statusCode).toBe(200);
    expect(again.json().object_id).toBe(body.object_id);
  });

  it('should let the operator ingest for any signer', async () => {
    const res = await asOperator('POST', '/v1/meter_events/ingest', { signer_agent_id: 'acme:agent:elsewhere', payload: payload({ quantity: 7 }), signature: 'c2ln' });
    expect(res.statusCode).toBe(201);
    expect(fake.lastCall<walletV1Metering.IngestMeterEventRequest>('ingestMeterEvent').request.signerAgentId).toBe('acme:agent:elsewhere');
  });

  it('should refuse an agent ingesting as another signer with 403 acting_agent_mismatch, before any call', async () => {
    const before = fake.log.count('ingestMeterEvent');
    const res = await signedRequest(h.app, reporter, 'POST', '/v1/meter_events/ingest', { signer_agent_id: 'acme:agent:someone-else', payload: payload(), signature: 'c2ln' });
    expectProblem(res, 403, 'acting_agent_mismatch');
    expect(fake.log.count('ingestMeterEvent')).toBe(before);
  });

  it.each([
    ['an unknown payload field', { payload: payload({ price: '1' }) }],
    ['an unknown body field', { payload: payload(), extra: 1 }],
    ['a quantity as a string', { payload: payload({ quantity: '1200' }) }],
    ['a fractional quantity', { payload: payload({ quantity: 1.5 }) }],
    ['a zero quantity', { payload: payload({ quantity: 0 }) }],
    ['a quantity over 10^12', { payload: payload({ quantity: 1_000_000_000_001 }) }],
    ['a missing epoch', { payload: { meter: 'm', subject_agent_id: 'acme:agent:subject', quantity: 1, unit: 'u', occurred_at: T } }],
    ['a bad occurred_at', { payload: payload({ occurred_at: 'yesterday' }) }],
    ['a bad subject', { payload: payload({ subject_agent_id: 'nobody' }) }],
  ])('should refuse %s with 400 validation_failed', async (_what, over) => {
    const before = fake.log.count('ingestMeterEvent');
    const res = await asOperator('POST', '/v1/meter_events/ingest', { signer_agent_id: reporter.agentId, signature: 'c2ln', ...over });
    expectProblem(res, 400, 'validation_failed');
    expect(fake.log.count('ingestMeterEvent')).toBe(before);
  });
});

describe('GET /v1/meter_events/{object_id}', () => {
  it('should pass the acting agent as the viewer, none for the operator, and show ref', async () => {
    const asAgent = await signedRequest(h.app, reporter, 'GET', `/v1/meter_events/${OBJ}`);
    expect(asAgent.statusCode).toBe(200);
    expect(fake.lastCall('getMeterEvent').request).toEqual({ objectId: OBJ, viewerAgentId: reporter.agentId });
    expect(asAgent.json()).toMatchObject({ object_id: OBJ, ref: 'r-1', quantity: 1200 });

    expect((await asOperator('GET', `/v1/meter_events/${OBJ}`)).statusCode).toBe(200);
    expect(fake.lastCall('getMeterEvent').request).toEqual({ objectId: OBJ });
  });

  it('should answer 404 meter_event_not_found to an agent the event is not about', async () => {
    expectProblem(await asOperator('GET', `/v1/meter_events/${OBJ}`, undefined, { 'x-agent-id': 'acme:agent:stranger' }), 404, 'meter_event_not_found');
  });

  it('should refuse a malformed object id with 400', async () => {
    expectProblem(await asOperator('GET', '/v1/meter_events/sha256:xyz'), 400, 'validation_failed');
  });
});

describe('meter epoch tables', () => {
  const table = { epoch: 'e1', effective_from: '2026-11-01T00:00:00.000Z', effective_to: '2026-12-01T00:00:00.000Z', prices: { 'z.meter': '1', 'a.meter': '0.000125' } };

  it('should create a table (201) with the prices sorted by meter, and answer 200 for one that existed', async () => {
    const res = await asOperator('POST', '/v1/meter_epoch_tables', table);
    expect(res.statusCode).toBe(201);
    expect(fake.lastCall('createMeterEpochTable').request).toEqual({
      epoch: 'e1',
      effectiveFrom: new Date(table.effective_from),
      effectiveTo: new Date(table.effective_to),
      prices: [
        { meter: 'a.meter', unitPrice: '0.000125' },
        { meter: 'z.meter', unitPrice: '1' },
      ],
    });
    expect(res.json()).toEqual({
      object_id: OBJ,
      epoch: 'e1',
      effective_from: table.effective_from,
      effective_to: table.effective_to,
      prices: { 'a.meter': '0.000125', 'z.meter': '1' },
      currency: 'CREDIT',
      payload: { currency: 'CREDIT', effective_from: table.effective_from, effective_to: table.effective_to, epoch: 'e1', prices: { 'a.meter': '0.000125', 'z.meter': '1' } },
      signature: 'sig',
      signer_public_key: 'pk',
      created_at: T,
    });
    expect((await asOperator('POST', '/v1/meter_epoch_tables', { ...table, epoch: 'existing', currency: 'USD' })).statusCode).toBe(200);
    expect(fake.lastCall<{ currency?: string }>('createMeterEpochTable').request.currency).toBe('USD');
  });

  it.each([
    ['no prices', { ...table, prices: {} }],
    ['a negative price', { ...table, prices: { m: '-1' } }],
    ['seven fraction digits', { ...table, prices: { m: '0.0000001' } }],
    ['a meter name with a space', { ...table, prices: { 'a b': '1' } }],
    ['a price as a number', { ...table, prices: { m: 1 } }],
    ['a bad effective_to', { ...table, effective_to: 'soon' }],
    ['an unknown field', { ...table, note: 'x' }],
  ])('should refuse %s with 400 validation_failed', async (_what, body) => {
    expectProblem(await asOperator('POST', '/v1/meter_epoch_tables', body), 400, 'validation_failed');
  });

  it('should read a table (operator) and refuse agents on both routes with 403 operator_token_required', async () => {
    const res = await asOperator('GET', `/v1/meter_epoch_tables/${OBJ}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ object_id: OBJ, prices: { 'llm.tokens': '0.000125' }, payload: { epoch: 'e1' } });
    expectProblem(await signedRequest(h.app, reporter, 'GET', `/v1/meter_epoch_tables/${OBJ}`), 403, 'operator_token_required');
    expectProblem(await signedRequest(h.app, reporter, 'POST', '/v1/meter_epoch_tables', table), 403, 'operator_token_required');
  });
});

describe('billing', () => {
  it('should create a projection (201) with integer counts and null period_receipt_id', async () => {
    const res = await asOperator('POST', '/v1/billing/projections', { agent_id: 'acme:agent:subject', period: '2026-11' });
    expect(res.statusCode).toBe(201);
    expect(fake.lastCall('createBillingProjection').request).toEqual({ agentId: 'acme:agent:subject', period: '2026-11' });
    expect(res.json()).toEqual({
      projection_id: PRJ,
      agent_id: 'acme:agent:subject',
      period: '2026-11',
      status: 'draft',
      lines: [{ meter: 'llm.tokens', epoch: 'e1', unit_price: '0.000125', currency: 'CREDIT', quantity: '1200', amount: '0.15', event_count: 1 }],
      totals: [{ amount: '0.15', currency: 'CREDIT' }],
      items: [{ object_id: OBJ, meter: 'llm.tokens', epoch: 'e1', occurred_at: T, quantity: '1200', unit_price: '0.000125', amount: '0.15', currency: 'CREDIT' }],
      event_count: 1,
      events_sha256: 'e'.repeat(64),
      computed_at: T,
      period_receipt_id: null,
      created_at: T,
      updated_at: T,
    });
  });

  it('should attach (200) and show the draft receipt with null emission fields', async () => {
    const res = await asOperator('POST', '/v1/billing/projections/attach', { projection_id: PRJ });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      period_receipt_id: PRC,
      status: 'draft',
      projection_id: PRJ,
      projection: { status: 'attached', period_receipt_id: PRC },
      object_id: null,
      payload: null,
      signature: null,
      signer_public_key: null,
      emitted_at: null,
    });
  });

  it('should emit (201 now, 200 when emitted before) with the signed payload parsed', async () => {
    const res = await asOperator('POST', '/v1/billing/receipts/emit', { agent_id: 'acme:agent:subject', period: '2026-11' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'emitted', object_id: OBJ, payload: { agent_id: 'acme:agent:subject', period: '2026-11' }, signature: 'sig', signer_public_key: 'pk', emitted_at: T });
    expect((await asOperator('POST', '/v1/billing/receipts/emit', { agent_id: 'acme:agent:subject', period: '2026-10' })).statusCode).toBe(200);
  });

  it('should reconcile a stored receipt by id and a presented one by its canonical payload', async () => {
    const byId = await asOperator('POST', '/v1/billing/reconciliation', { period_receipt_id: PRC });
    expect(byId.statusCode).toBe(200);
    expect(fake.lastCall('reconcilePeriodReceipt').request).toEqual({ receipt: { $case: 'periodReceiptId', value: PRC } });
    expect(byId.json()).toEqual({
      period_receipt_id: PRC,
      agent_id: 'acme:agent:subject',
      period: '2026-11',
      consistent: false,
      signature_valid: true,
      differences: [{ kind: 'missing', ref: OBJ, receipt: null, recomputed: { quantity: 1200 }, detail: 'missing' }],
      receipt_totals: [{ amount: '0', currency: 'CREDIT' }],
      recomputed_totals: [{ amount: '0.15', currency: 'CREDIT' }],
      receipt_event_count: 0,
      recomputed_event_count: 1,
      reconciled_at: T,
    });

    const presented = { payload: { period: '2026-11', agent_id: 'acme:agent:subject', items: [] }, signature: 'c2ln' };
    expect((await asOperator('POST', '/v1/billing/reconciliation', { receipt: presented })).statusCode).toBe(200);
    expect(fake.lastCall('reconcilePeriodReceipt').request).toEqual({
      receipt: { $case: 'presented', value: { payloadJson: '{"agent_id":"acme:agent:subject","items":[],"period":"2026-11"}', signature: 'c2ln' } },
    });
  });

  it.each([
    ['both', { period_receipt_id: PRC, receipt: { payload: {}, signature: 'c2ln' } }],
    ['neither', {}],
    ['a payload that is not an object', { receipt: { payload: [1], signature: 'c2ln' } }],
  ])('should refuse a reconciliation with %s with 400 validation_failed', async (_what, body) => {
    const before = fake.log.count('reconcilePeriodReceipt');
    expectProblem(await asOperator('POST', '/v1/billing/reconciliation', body), 400, 'validation_failed');
    expect(fake.log.count('reconcilePeriodReceipt')).toBe(before);
  });

  it.each([
    ['/v1/billing/projections', { agent_id: 'acme:agent:subject', period: '2026-11' }],
    ['/v1/billing/projections/attach', { projection_id: PRJ }],
    ['/v1/billing/receipts/emit', { agent_id: 'acme:agent:subject', period: '2026-11' }],
    ['/v1/billing/reconciliation', { period_receipt_id: PRC }],
  ])('should refuse an agent on %s with 403 operator_token_required', async (url, body) => {
    expectProblem(await signedRequest(h.app, reporter, 'POST', url, body), 403, 'operator_token_required');
  });

  it.each([['2026-1'], ['2026/11'], ['november']])('should refuse period %s with 400 validation_failed', async (period) => {
    expectProblem(await asOperator('POST', '/v1/billing/projections', { agent_id: 'acme:agent:subject', period }), 400, 'validation_failed');
  });
});
