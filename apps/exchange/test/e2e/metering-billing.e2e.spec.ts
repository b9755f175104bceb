import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { CommerceHttp } from './commerce-http';
import { expectProblem, http } from './http';
import { canonicalJson, type RawAgent } from './raw-agent';

import { bootStack, type Stack } from './stack';

// Metering and billing through the whole exchange, as /skill.md tells an agent: the operator
// prices two epochs with a boundary inside the previous UTC month (a month that has ended, so its
// receipt can be emitted now); a reporting agent signs meter events about a subject (ed25519 over
// canonical JSON, node:crypto); the operator projects, attaches, emits (the period then closes)
// and reconciles — stored, and as presented with an item removed. Figures are computed by hand.

let stack: Stack;
let c: CommerceHttp;
let reporter: RawAgent;
let subject: RawAgent;
let stranger: RawAgent;

const DAY = 86_400_000;
const now = new Date();
const P0 = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)); // previous month
const P1 = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)); // this month
const PERIOD = P0.toISOString().slice(0, 7);
const BOUNDARY = new Date(P0.getTime() + 10 * DAY);
const at = (base: Date, days: number) => new Date(base.getTime() + days * DAY).toISOString();
// Meters and epochs of this file only: another suite on the same exchange never overlaps them.
const SFX = randomBytes(3).toString('hex');
const TOKENS = `llm.tokens.${SFX}`;
const CALLS = `api.calls.${SFX}`;
const EA = `e2e-a-${SFX}`;
const EB = `e2e-b-${SFX}`;

interface Payload {
  meter: string;
  subject_agent_id: string;
  quantity: number;
  unit: string;
  occurred_at: string;
  epoch: string;
  ref?: string;
}

const payload = (over: Partial<Payload>): Payload => ({ meter: TOKENS, subject_agent_id: subject.agentId, quantity: 1, unit: 'token', occurred_at: at(P0, 1), epoch: EA, ...over });
/** The ingest body `signer` signs (signature over the canonical JSON of the payload). */
const signed = (signer: RawAgent, p: Payload, by: RawAgent = signer) => ({ signer_agent_id: signer.agentId, payload: p, signature: by.signBase64(canonicalJson(p)) });
const ingest = (p: Payload, as: RawAgent = reporter) => c.as(as, 'POST', '/v1/meter_events/ingest', signed(as, p));

function verifiesWith(publicKeyB64: string, text: string, signatureB64: string): boolean {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyB64, 'base64').toString('base64url') }, format: 'jwk' });
  return verify(null, Buffer.from(text), key, Buffer.from(signatureB64, 'base64'));
}

// The three events of the period: epoch a before the boundary, b after it.
const EVENTS = {
  tokensA: () => payload({ meter: TOKENS, quantity: 1000, occurred_at: at(P0, 1), epoch: EA, ref: 'a-1' }),
  tokensB: () => payload({ meter: TOKENS, quantity: 2000, occurred_at: at(BOUNDARY, 1), epoch: EB, ref: 'b-1' }),
  callsA: () => payload({ meter: CALLS, quantity: 3, unit: 'call', occurred_at: at(P0, 2), epoch: EA }),
};
const ids: Record<keyof typeof EVENTS, string> = { tokensA: '', tokensB: '', callsA: '' };
let tableA: any;

beforeAll(async () => {
  stack = await bootStack();
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  [reporter, subject, stranger] = await Promise.all([c.newAgent('meter-reporter'), c.newAgent('meter-subject'), c.newAgent('meter-stranger')]);
});

afterAll(async () => {
  await stack?.stop();
});

describe('POST /v1/meter_epoch_tables (operator)', () => {
  it('creates two epochs meeting at a boundary inside the previous month (201), and the identical table again is 200', async () => {
    const a = { epoch: EA, effective_from: P0.toISOString(), effective_to: BOUNDARY.toISOString(), prices: { [TOKENS]: '0.000125', [CALLS]: '0.01' } };
    const created = await c.expectStatus(c.op('POST', '/v1/meter_epoch_tables', a), 201);
    expect(created).toMatchObject({ epoch: EA, prices: { [CALLS]: '0.01', [TOKENS]: '0.000125' }, currency: 'CREDIT', effective_to: BOUNDARY.toISOString() });
    expect(created.object_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Exchange-signed: the signature verifies over the canonical payload with the key /health publishes.
    const health = await http(stack.baseUrl, 'GET', '/health');
    expect(created.signer_public_key).toBe(health.body.exchange_public_key);
    expect(verifiesWith(created.signer_public_key, canonicalJson(created.payload), created.signature)).toBe(true);
    tableA = created;
    expect((await c.expectStatus(c.op('POST', '/v1/meter_epoch_tables', a), 200)).object_id).toBe(created.object_id);

    const b = { epoch: EB, effective_from: BOUNDARY.toISOString(), effective_to: P1.toISOString(), prices: { [TOKENS]: '0.0002' } };
    await c.expectStatus(c.op('POST', '/v1/meter_epoch_tables', b), 201);
  });

  it('refuses an overlapping epoch (409 epoch_overlap), a changed table under an existing name (409 epoch_exists) and an agent (403)', async () => {
    const overlap = { epoch: `e2e-c-${SFX}`, effective_from: at(P0, 5), effective_to: at(P0, 6), prices: { [TOKENS]: '1' } };
    expectProblem(await c.op('POST', '/v1/meter_epoch_tables', overlap), 409, 'epoch_overlap');
    const changed = { epoch: EA, effective_from: P0.toISOString(), effective_to: BOUNDARY.toISOString(), prices: { [TOKENS]: '0.5' } };
    expectProblem(await c.op('POST', '/v1/meter_epoch_tables', changed), 409, 'epoch_exists');
    expectProblem(await c.as(reporter, 'POST', '/v1/meter_epoch_tables', overlap), 403, 'operator_token_required');
  });

  it('GET /v1/meter_epoch_tables/{object_id} reads a table (operator); an agent is refused (403), an unknown id is 404', async () => {
    expect(await c.expectStatus(c.op('GET', `/v1/meter_epoch_tables/${tableA.object_id}`), 200)).toEqual(tableA);
    expectProblem(await c.as(reporter, 'GET', `/v1/meter_epoch_tables/${tableA.object_id}`), 403, 'operator_token_required');
    expectProblem(await c.op('GET', `/v1/meter_epoch_tables/sha256:${'0'.repeat(64)}`), 404, 'meter_epoch_table_not_found');
  });
});

describe('POST /v1/meter_events/ingest', () => {
  it('ingests agent-signed events (201), priced by their epoch; the same event again is 200 with the same object_id', async () => {
    for (const name of Object.keys(EVENTS) as Array<keyof typeof EVENTS>) {
      const p = EVENTS[name]();
      const res = await ingest(p);
      const event = await c.expectStatus(res, 201);
      expect(event).toMatchObject({ type: 'meter_event', signer_agent_id: reporter.agentId, subject_agent_id: subject.agentId, payload: p, quantity: p.quantity, period: PERIOD, epoch: p.epoch, currency: 'CREDIT' });
      ids[name] = event.object_id;
    }
    const again = await c.expectStatus(ingest(EVENTS.tokensA()), 200);
    expect(again.object_id).toBe(ids.tokensA);
    expect((await c.expectStatus(c.op('GET', `/v1/meter_events/${ids.tokensB}`), 200)).unit_price).toBe('0.0002');
  });

  it('refuses a forged signature (400), an event more than 5 minutes ahead (400) and one two months back (409)', async () => {
    const forged = signed(reporter, payload({ ref: 'forged' }), stranger);
    expectProblem(await c.as(reporter, 'POST', '/v1/meter_events/ingest', forged), 400, 'object_signature_invalid');
    expectProblem(await ingest(payload({ occurred_at: new Date(Date.now() + 3600_000).toISOString(), ref: 'future' })), 400, 'meter_event_in_future');
    const old = new Date(Date.UTC(P0.getUTCFullYear(), P0.getUTCMonth() - 1, 3)).toISOString();
    expectProblem(await ingest(payload({ occurred_at: old, ref: 'old' })), 409, 'billing_period_closed');
  });

  it('refuses an epoch that does not cover the time (409 epoch_mismatch), an unknown epoch (404) and another signer (403)', async () => {
    expectProblem(await ingest(payload({ epoch: EB, occurred_at: at(P0, 1), ref: 'mismatch' })), 409, 'epoch_mismatch');
    expectProblem(await ingest(payload({ epoch: 'nope', ref: 'unknown' })), 404, 'epoch_not_found');
    const asOther = signed(reporter, payload({ ref: 'other' }));
    expectProblem(await c.as(stranger, 'POST', '/v1/meter_events/ingest', asOther), 403, 'acting_agent_mismatch');
  });

  it('refuses a quantity that is not a positive JSON integer (400 validation_failed)', async () => {
    for (const quantity of [0, 1.5, '3'] as unknown[]) {
      const p = { ...payload({ ref: 'q' }), quantity } as unknown as Payload;
      expectProblem(await ingest(p), 400, 'validation_failed');
    }
  });
});

describe('GET /v1/meter_events/{object_id}', () => {
  it('is read by the operator, the signer and the subject; a stranger gets 404', async () => {
    for (const res of [c.op('GET', `/v1/meter_events/${ids.callsA}`), c.as(reporter, 'GET', `/v1/meter_events/${ids.callsA}`), c.as(subject, 'GET', `/v1/meter_events/${ids.callsA}`)]) {
      expect(await c.expectStatus(res, 200)).toMatchObject({ object_id: ids.callsA, meter: CALLS, quantity: 3, unit_price: '0.01' });
    }
    expectProblem(await c.as(stranger, 'GET', `/v1/meter_events/${ids.callsA}`), 404, 'meter_event_not_found');
  });
});

describe('billing (operator)', () => {
  let projection: any;
  let receipt: any;

  it('POST /v1/billing/projections projects the period: one line per (meter, epoch), figures computed by hand', async () => {
    projection = await c.expectStatus(c.op('POST', '/v1/billing/projections', { agent_id: subject.agentId, period: PERIOD }), 201);
    expect(projection).toMatchObject({ agent_id: subject.agentId, period: PERIOD, status: 'draft', event_count: 3, period_receipt_id: null });
    expect(projection.projection_id).toMatch(/^prj_/);
    // 3 × 0.01 = 0.03; 1000 × 0.000125 = 0.125; 2000 × 0.0002 = 0.4; total 0.555.
    expect(projection.lines).toEqual([
      { meter: CALLS, epoch: EA, unit_price: '0.01', currency: 'CREDIT', quantity: '3', amount: '0.03', event_count: 1 },
      { meter: TOKENS, epoch: EA, unit_price: '0.000125', currency: 'CREDIT', quantity: '1000', amount: '0.125', event_count: 1 },
      { meter: TOKENS, epoch: EB, unit_price: '0.0002', currency: 'CREDIT', quantity: '2000', amount: '0.4', event_count: 1 },
    ]);
    expect(projection.totals).toEqual([{ amount: '0.555', currency: 'CREDIT' }]);
    expect(projection.items.map((i: { object_id: string }) => i.object_id)).toEqual([ids.tokensA, ids.callsA, ids.tokensB]);
  });

  it('refuses a month that has not begun (400 invalid_period) and an unknown projection (404)', async () => {
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
    expectProblem(await c.op('POST', '/v1/billing/projections', { agent_id: subject.agentId, period: next }), 400, 'invalid_period');
    expectProblem(await c.op('POST', '/v1/billing/projections/attach', { projection_id: 'prj_00000000-0000-7000-8000-000000000000' }), 404, 'billing_projection_not_found');
  });

  it('POST /v1/billing/receipts/emit needs an attached projection: 409 projection_not_attached first, then POST /v1/billing/projections/attach (200), emit 201, again 200', async () => {
    expectProblem(await c.op('POST', '/v1/billing/receipts/emit', { agent_id: subject.agentId, period: PERIOD }), 409, 'projection_not_attached');
    const attached = await c.expectStatus(c.op('POST', '/v1/billing/projections/attach', { projection_id: projection.projection_id }), 200);
    expect(attached).toMatchObject({ agent_id: subject.agentId, period: PERIOD, status: 'draft', projection_id: projection.projection_id, object_id: null, signature: null });
    expect(attached.projection.status).toBe('attached');

    receipt = await c.expectStatus(c.op('POST', '/v1/billing/receipts/emit', { agent_id: subject.agentId, period: PERIOD }), 201);
    expect(receipt).toMatchObject({ period_receipt_id: attached.period_receipt_id, status: 'emitted', projection: { status: 'emitted', totals: [{ amount: '0.555', currency: 'CREDIT' }] } });
    // Offline check, as /skill.md shows: the exchange key over the canonical JSON of the payload.
    expect(verifiesWith(receipt.signer_public_key, canonicalJson(receipt.payload), receipt.signature)).toBe(true);
    expect(receipt.payload).toMatchObject({ agent_id: subject.agentId, period: PERIOD });
    const again = await c.expectStatus(c.op('POST', '/v1/billing/receipts/emit', { agent_id: subject.agentId, period: PERIOD }), 200);
    expect(again.object_id).toBe(receipt.object_id);
  });

  it('closes the period: a new meter event in it is 409 billing_period_closed', async () => {
    expectProblem(await ingest(payload({ ref: 'late', occurred_at: at(P0, 3) })), 409, 'billing_period_closed');
  });

  it('POST /v1/billing/reconciliation finds the stored receipt consistent', async () => {
    const r = await c.expectStatus(c.op('POST', '/v1/billing/reconciliation', { period_receipt_id: receipt.period_receipt_id }), 200);
    expect(r).toMatchObject({
      period_receipt_id: receipt.period_receipt_id,
      consistent: true,
      signature_valid: true,
      differences: [],
      receipt_totals: [{ amount: '0.555', currency: 'CREDIT' }],
      recomputed_totals: [{ amount: '0.555', currency: 'CREDIT' }],
      receipt_event_count: 3,
      recomputed_event_count: 3,
    });
  });

  it('finds the missing event of a presented receipt with an item removed', async () => {
    const p = structuredClone(receipt.payload);
    p.projection.items = p.projection.items.filter((i: { object_id: string }) => i.object_id !== ids.callsA);
    const r = await c.expectStatus(c.op('POST', '/v1/billing/reconciliation', { receipt: { payload: p, signature: receipt.signature } }), 200);
    expect(r.consistent).toBe(false);
    expect(r.differences).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'missing', ref: ids.callsA })]));
    expect(r.recomputed_event_count).toBe(3);
  });

  it('refuses both and neither receipt forms (400)', async () => {
    expectProblem(await c.op('POST', '/v1/billing/reconciliation', {}), 400, 'validation_failed');
    expectProblem(await c.op('POST', '/v1/billing/reconciliation', { period_receipt_id: receipt.period_receipt_id, receipt: { payload: {}, signature: receipt.signature } }), 400, 'validation_failed');
  });

  it('refuses an agent on every billing route (403 operator_token_required)', async () => {
    for (const [path, body] of [
      ['/v1/billing/projections', { agent_id: subject.agentId, period: PERIOD }],
      ['/v1/billing/projections/attach', { projection_id: projection.projection_id }],
      ['/v1/billing/receipts/emit', { agent_id: subject.agentId, period: PERIOD }],
      ['/v1/billing/reconciliation', { period_receipt_id: receipt.period_receipt_id }],
    ] as const) {
      expectProblem(await c.as(subject, 'POST', path, body), 403, 'operator_token_required');
    }
  });
});

describe('the ledger', () => {
  it('checks out', async () => {
    await c.expectLedgerOk();
  });
});
