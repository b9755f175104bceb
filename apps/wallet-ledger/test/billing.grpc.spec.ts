import { canonicalize, generateKeyPair, sha256Hex, toBase64, verifyCanonical } from '@exchange/crypto';
import { registryV1, registryV1Wire, walletV1Metering } from '@exchange/proto';
import { keyedAgent, registryEnv, registryObjectId, startFakeRegistry, type FakeRegistry } from './fake-registry';
import { agentId, grpcError, outboxOfType, startTestWallet, type TestWallet } from './wallet-harness';

// Billing against a real wallet (fresh PostgreSQL), the fake registry signing with the wallet's
// own exchange key, and a fixed clock: on 2026-11-10T12:00Z October and November are open for
// meter events, October's receipt may be emitted, November's not yet. Epoch tables and meter
// events go through CreateMeterEpochTable / IngestMeterEvent; SQL only where a test tampers.

const NOW = new Date('2026-11-10T12:00:00.000Z');
const { Kind } = { Kind: walletV1Metering.ReconciliationDifferenceKind };
const CREATED = 'exchange.wallet.billing_projection.created';
const ATTACHED = 'exchange.wallet.billing_projection.attached';
const EMITTED = 'exchange.wallet.period_receipt.emitted';

describe('billing: projection → attach → emit → reconcile', () => {
  const exchange = generateKeyPair();
  const exchangeKey = toBase64(exchange.publicKey);
  const reporter = keyedAgent(agentId('reporter'));
  const alice = keyedAgent(agentId('alice'));
  const bob = keyedAgent(agentId('bob'));
  const carol = keyedAgent(agentId('carol'));
  let w: TestWallet;
  let reg: FakeRegistry;

  beforeAll(async () => {
    const agents = [reporter, alice, bob, carol];
    reg = await startFakeRegistry({ agents, exchangePrivateKey: exchange.privateKey });
    w = await startTestWallet({
      name: 'wallet_billing',
      agents,
      env: { ...registryEnv(reg), EXCHANGE_SIGNING_KEY: toBase64(exchange.privateKey) },
      clock: () => NOW,
    });
    const table = (epoch: string, from: string, to: string, prices: Array<[string, string]>) =>
      w.client.createMeterEpochTable({ epoch, effectiveFrom: new Date(from), effectiveTo: new Date(to), prices: prices.map(([meter, unitPrice]) => ({ meter, unitPrice })) });
    // An epoch boundary on 2026-10-16: api.calls costs 0.001 before, 0.0015 after.
    await table('E1', '2026-10-01T00:00:00Z', '2026-10-16T00:00:00Z', [['api.calls', '0.001'], ['tokens', '0.000002']]);
    await table('E2', '2026-10-16T00:00:00Z', '2026-11-01T00:00:00Z', [['api.calls', '0.0015']]);
    await table('EN', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', [['api.calls', '0.002']]);
    await table('E3', '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z', [['storage', '0.0001']]);
  });
  afterAll(async () => {
    await w.close();
    await reg.stop();
  });

  let refSeq = 0;
  /** IngestMeterEvent of a usage the reporter signs; returns its object id. */
  async function usage(subject: string, meter: string, epoch: string, occurredAt: string, quantity: number): Promise<string> {
    const payload = { meter, subject_agent_id: subject, quantity, unit: 'unit', occurred_at: occurredAt, epoch, ref: `r-${++refSeq}` };
    const res = await w.client.ingestMeterEvent({ signerAgentId: reporter.agentId, payloadJson: JSON.stringify(payload), signature: reporter.sign(payload) });
    return res.event!.objectId;
  }
  const statusOf = async (projectionId: string) =>
    (await w.sql.query<{ status: string }>('SELECT status FROM billing_projections WHERE projection_id = $1', [projectionId])).rows[0].status;

  // alice's October (hand-computed):
  //   a1 api.calls 100 @E1 0.001  = 0.1      (100 × 1 000 µ = 100 000 µ)
  //   a2 tokens  5 000 @E1 0.000002 = 0.01   (5 000 × 2 µ = 10 000 µ)
  //   a3 api.calls  20 @E1 0.001  = 0.02     (20 000 µ)
  //   a4 api.calls  10 @E2 0.0015 = 0.015    (10 × 1 500 µ = 15 000 µ)
  //   lines api.calls/E1 120 → 0.12 (2), api.calls/E2 10 → 0.015 (1), tokens/E1 5 000 → 0.01 (1); total 0.145
  const ids: Record<string, string> = {};
  let p1: walletV1Metering.BillingProjection;
  let p2: walletV1Metering.BillingProjection;
  let emitted: walletV1Metering.PeriodReceipt;

  it('should project October with two api.calls lines across the epoch boundary, priced exactly', async () => {
    ids.a1 = await usage(alice.agentId, 'api.calls', 'E1', '2026-10-05T10:00:00.000Z', 100);
    ids.a2 = await usage(alice.agentId, 'tokens', 'E1', '2026-10-06T10:00:00.000Z', 5000);
    ids.a3 = await usage(alice.agentId, 'api.calls', 'E1', '2026-10-10T10:00:00.000Z', 20);
    ids.a4 = await usage(alice.agentId, 'api.calls', 'E2', '2026-10-20T10:00:00.000Z', 10);
    p1 = (await w.client.createBillingProjection({ agentId: alice.agentId, period: '2026-10' })).projection!;
    expect(p1.projectionId).toMatch(/^prj_/);
    expect(p1).toMatchObject({
      agentId: alice.agentId,
      period: '2026-10',
      status: walletV1Metering.BillingProjectionStatus.BILLING_PROJECTION_STATUS_DRAFT,
      lines: [
        { meter: 'api.calls', epoch: 'E1', unitPrice: '0.001', currency: 'CREDIT', quantity: '120', amount: '0.12', eventCount: '2' },
        { meter: 'api.calls', epoch: 'E2', unitPrice: '0.0015', currency: 'CREDIT', quantity: '10', amount: '0.015', eventCount: '1' },
        { meter: 'tokens', epoch: 'E1', unitPrice: '0.000002', currency: 'CREDIT', quantity: '5000', amount: '0.01', eventCount: '1' },
      ],
      totals: [{ amount: '0.145', currency: 'CREDIT' }],
      eventCount: '4',
      eventsSha256: sha256Hex([ids.a1, ids.a2, ids.a3, ids.a4].sort().join('\n')),
      computedAt: NOW,
      periodReceiptId: undefined,
    });
    expect(p1.items.map((i) => [i.objectId, i.quantity, i.unitPrice, i.amount])).toEqual([
      [ids.a1, '100', '0.001', '0.1'],
      [ids.a2, '5000', '0.000002', '0.01'],
      [ids.a3, '20', '0.001', '0.02'],
      [ids.a4, '10', '0.0015', '0.015'],
    ]);
    const created = (await outboxOfType(w.sql, CREATED)).filter((e) => e.data.projection.projectionId === p1.projectionId);
    expect(created).toHaveLength(1);
    expect(created[0].subject).toBe(alice.agentId);
    expect(created[0].data.projection).toMatchObject({ status: 'BILLING_PROJECTION_STATUS_DRAFT', totals: [{ amount: '0.145', currency: 'CREDIT' }], eventCount: '4' });
    expect(created[0].data.projection.items ?? []).toEqual([]);
  });

  it('should attach the projection to a new draft period receipt, and answer a repeat as it is', async () => {
    const { receipt } = await w.client.attachBillingProjection({ projectionId: p1.projectionId });
    expect(receipt!.periodReceiptId).toMatch(/^prc_/);
    expect(receipt).toMatchObject({
      agentId: alice.agentId,
      period: '2026-10',
      status: walletV1Metering.PeriodReceiptStatus.PERIOD_RECEIPT_STATUS_DRAFT,
      projectionId: p1.projectionId,
      projection: { status: walletV1Metering.BillingProjectionStatus.BILLING_PROJECTION_STATUS_ATTACHED, periodReceiptId: receipt!.periodReceiptId },
      objectId: undefined,
      signature: undefined,
    });
    expect(receipt!.projection!.items).toHaveLength(4);
    const again = await w.client.attachBillingProjection({ projectionId: p1.projectionId });
    expect(again.receipt).toEqual(receipt);
    const attached = (await outboxOfType(w.sql, ATTACHED)).filter((e) => e.data.projection.projectionId === p1.projectionId);
    expect(attached).toHaveLength(1);
    expect(attached[0].data.projection.periodReceiptId).toBe(receipt!.periodReceiptId);
  });

  it('should not emit November before it ends, nor a period without an attached projection', async () => {
    await usage(alice.agentId, 'api.calls', 'EN', '2026-11-05T10:00:00.000Z', 1);
    const nov = (await w.client.createBillingProjection({ agentId: alice.agentId, period: '2026-11' })).projection!;
    expect(nov.totals).toEqual([{ amount: '0.002', currency: 'CREDIT' }]); // 1 × 0.002
    await w.client.attachBillingProjection({ projectionId: nov.projectionId });
    expect(await grpcError(w.client.emitPeriodReceipt({ agentId: alice.agentId, period: '2026-11' }))).toMatchObject({
      code: 'period_not_ended',
      details: { ends_at: '2026-12-01T00:00:00.000Z' },
    });
    expect(await grpcError(w.client.emitPeriodReceipt({ agentId: carol.agentId, period: '2026-10' }))).toMatchObject({ code: 'projection_not_attached' });
  });

  it('should refuse to emit a stale projection once a late event arrived, storing nothing', async () => {
    // a5 api.calls 30 @E2 0.0015 = 0.045 (45 000 µ), ingested after p1 was computed
    ids.a5 = await usage(alice.agentId, 'api.calls', 'E2', '2026-10-25T10:00:00.000Z', 30);
    const stored = reg.count('storeExchangeObject');
    expect(await grpcError(w.client.emitPeriodReceipt({ agentId: alice.agentId, period: '2026-10' }))).toMatchObject({
      code: 'projection_stale',
      details: { projection_id: p1.projectionId, event_count: 5 },
    });
    expect(reg.count('storeExchangeObject')).toBe(stored);
    expect(await statusOf(p1.projectionId)).toBe('attached');
  });

  it('should emit once re-projected and attached: the old projection superseded, the receipt signed by the exchange', async () => {
    p2 = (await w.client.createBillingProjection({ agentId: alice.agentId, period: '2026-10' })).projection!;
    // api.calls/E2: 10 + 30 = 40 → 0.015 + 0.045 = 0.06; total 0.145 + 0.045 = 0.19
    expect(p2.lines[1]).toMatchObject({ meter: 'api.calls', epoch: 'E2', quantity: '40', amount: '0.06', eventCount: '2' });
    expect(p2.totals).toEqual([{ amount: '0.19', currency: 'CREDIT' }]);
    const { receipt: draft } = await w.client.attachBillingProjection({ projectionId: p2.projectionId });
    expect(draft!.projectionId).toBe(p2.projectionId);
    expect(await statusOf(p1.projectionId)).toBe('superseded');

    const res = await w.client.emitPeriodReceipt({ agentId: alice.agentId, period: '2026-10' });
    expect(res.created).toBe(true);
    emitted = res.receipt!;
    expect(emitted).toMatchObject({
      periodReceiptId: draft!.periodReceiptId,
      status: walletV1Metering.PeriodReceiptStatus.PERIOD_RECEIPT_STATUS_EMITTED,
      projectionId: p2.projectionId,
      projection: { status: walletV1Metering.BillingProjectionStatus.BILLING_PROJECTION_STATUS_EMITTED },
      signerPublicKey: exchangeKey,
      emittedAt: NOW,
    });
    const payload = JSON.parse(emitted.payloadJson!);
    expect(payload).toEqual({
      type: 'subscription_period_receipt',
      period_receipt_id: draft!.periodReceiptId,
      agent_id: alice.agentId,
      period: '2026-10',
      projection: {
        projection_id: p2.projectionId,
        lines: [
          { meter: 'api.calls', epoch: 'E1', unit_price: '0.001', currency: 'CREDIT', quantity: '120', amount: '0.12', event_count: 2 },
          { meter: 'api.calls', epoch: 'E2', unit_price: '0.0015', currency: 'CREDIT', quantity: '40', amount: '0.06', event_count: 2 },
          { meter: 'tokens', epoch: 'E1', unit_price: '0.000002', currency: 'CREDIT', quantity: '5000', amount: '0.01', event_count: 1 },
        ],
        totals: [{ currency: 'CREDIT', amount: '0.19' }],
        items: [ids.a1, ids.a2, ids.a3, ids.a4, ids.a5].map((id) => expect.objectContaining({ object_id: id })),
        event_count: 5,
        events_sha256: sha256Hex([ids.a1, ids.a2, ids.a3, ids.a4, ids.a5].sort().join('\n')),
        computed_at: NOW.toISOString(),
      },
      emitted_at: NOW.toISOString(),
    });
    expect(payload.projection.items[4]).toEqual({
      object_id: ids.a5,
      meter: 'api.calls',
      epoch: 'E2',
      occurred_at: '2026-10-25T10:00:00.000Z',
      quantity: '30',
      unit_price: '0.0015',
      amount: '0.045',
      currency: 'CREDIT',
    });
    // Anyone verifies it offline: ed25519 by the exchange key over canonical(payload).
    expect(emitted.payloadJson).toBe(canonicalize(payload));
    expect(verifyCanonical(payload, emitted.signature!, exchangeKey)).toBe(true);
    expect(emitted.objectId).toBe(registryObjectId('subscription_period_receipt', payload, 'exchange'));
    const call = reg.fake.lastCall<registryV1.StoreExchangeObjectRequest>('storeExchangeObject').request;
    expect(call).toMatchObject({ type: 'subscription_period_receipt', parties: [alice.agentId], tags: [] });
    expect(registryV1Wire.visibility.toWire(call.visibility)).toBe('parties');
    expect(await statusOf(p2.projectionId)).toBe('emitted');
    const events = (await outboxOfType(w.sql, EMITTED)).filter((e) => e.data.receipt.periodReceiptId === emitted.periodReceiptId);
    expect(events).toHaveLength(1);
    expect(events[0].subject).toBe(alice.agentId);
    expect(events[0].data.receipt).toMatchObject({ status: 'PERIOD_RECEIPT_STATUS_EMITTED', objectId: emitted.objectId, projection: { totals: [{ amount: '0.19', currency: 'CREDIT' }] } });
  });

  it('should answer a second emit with the same receipt, created false, without the registry or an event', async () => {
    const stored = reg.count('storeExchangeObject');
    const again = await w.client.emitPeriodReceipt({ agentId: alice.agentId, period: '2026-10' });
    expect(again).toEqual({ receipt: emitted, created: false });
    expect(reg.count('storeExchangeObject')).toBe(stored);
    expect((await outboxOfType(w.sql, EMITTED)).filter((e) => e.data.receipt.periodReceiptId === emitted.periodReceiptId)).toHaveLength(1);
  });

  it('should close the period: attach after emit is invalid_state, a later event billing_period_closed', async () => {
    const p3 = (await w.client.createBillingProjection({ agentId: alice.agentId, period: '2026-10' })).projection!;
    expect(await grpcError(w.client.attachBillingProjection({ projectionId: p3.projectionId }))).toMatchObject({
      code: 'invalid_state',
      details: { current: 'emitted', wanted: 'draft' },
    });
    expect(await grpcError(w.client.attachBillingProjection({ projectionId: p1.projectionId }))).toMatchObject({ code: 'invalid_state' });
    expect(await grpcError(usage(alice.agentId, 'api.calls', 'E2', '2026-10-30T10:00:00.000Z', 1))).toMatchObject({ code: 'billing_period_closed' });
  });

  const kinds = (r: walletV1Metering.Reconciliation) => r.differences.map((d) => [d.kind, d.ref]);
  const present = (payload: unknown, signature = emitted.signature!) =>
    w.client.reconcilePeriodReceipt({ receipt: { $case: 'presented', value: { payloadJson: JSON.stringify(payload), signature } } });

  it('should find the stored receipt consistent with the signed meter events', async () => {
    const before = (await w.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events')).rows[0].n;
    const { reconciliation } = await w.client.reconcilePeriodReceipt({ receipt: { $case: 'periodReceiptId', value: emitted.periodReceiptId } });
    expect(reconciliation).toEqual({
      periodReceiptId: emitted.periodReceiptId,
      agentId: alice.agentId,
      period: '2026-10',
      consistent: true,
      signatureValid: true,
      differences: [],
      receiptTotals: [{ amount: '0.19', currency: 'CREDIT' }],
      recomputedTotals: [{ amount: '0.19', currency: 'CREDIT' }],
      receiptEventCount: '5',
      recomputedEventCount: '5',
      reconciledAt: NOW,
    });
    // The genuine payload presented as it is: the same answer.
    expect((await present(JSON.parse(emitted.payloadJson!))).reconciliation!.consistent).toBe(true);
    expect((await w.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events')).rows[0].n).toBe(before);
  });

  it('should list a removed item as MISSING, with its line no longer summing, and the broken signature', async () => {
    const payload = JSON.parse(emitted.payloadJson!);
    payload.projection.items = payload.projection.items.filter((i: { object_id: string }) => i.object_id !== ids.a2);
    const r = (await present(payload)).reconciliation!;
    // lines and totals kept: tokens/E1 still says 5 000 / 0.01, its items now sum to nothing
    expect(kinds(r)).toEqual([
      [Kind.RECONCILIATION_DIFFERENCE_KIND_MISSING, ids.a2],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_TOTAL_MISMATCH, 'tokens/E1'],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_SIGNATURE_INVALID, emitted.periodReceiptId],
    ]);
    expect(r).toMatchObject({ consistent: false, signatureValid: false, receiptTotals: [{ amount: '0.19', currency: 'CREDIT' }], recomputedTotals: [{ amount: '0.19', currency: 'CREDIT' }] });
    expect(JSON.parse(r.differences[0].recomputedJson)).toMatchObject({ object_id: ids.a2, amount: '0.01' });
  });

  it('should list an added item as EXTRA', async () => {
    const payload = JSON.parse(emitted.payloadJson!);
    const forged = { ...payload.projection.items[0], object_id: `sha256:${'f'.repeat(64)}`, quantity: '1', amount: '0.001' };
    payload.projection.items.push(forged);
    const r = (await present(payload)).reconciliation!;
    // api.calls/E1's items now sum to 121 → 0.121 against the line's 120 → 0.12
    expect(kinds(r)).toEqual([
      [Kind.RECONCILIATION_DIFFERENCE_KIND_EXTRA, forged.object_id],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_TOTAL_MISMATCH, 'api.calls/E1'],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_SIGNATURE_INVALID, emitted.periodReceiptId],
    ]);
  });

  it('should list a changed price as REPRICED and the receipt total against the events', async () => {
    const payload = JSON.parse(emitted.payloadJson!);
    // a4 at 0.001 instead of 0.0015: 10 × 0.001 = 0.01; lines and totals re-summed to hide it:
    // api.calls/E2 0.01 + 0.045 = 0.055, total 0.12 + 0.055 + 0.01 = 0.185
    const a4 = payload.projection.items.find((i: { object_id: string }) => i.object_id === ids.a4);
    Object.assign(a4, { unit_price: '0.001', amount: '0.01' });
    payload.projection.lines[1].amount = '0.055';
    payload.projection.totals = [{ currency: 'CREDIT', amount: '0.185' }];
    const r = (await present(payload)).reconciliation!;
    expect(kinds(r)).toEqual([
      [Kind.RECONCILIATION_DIFFERENCE_KIND_REPRICED, ids.a4],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_TOTAL_MISMATCH, 'api.calls/E2'], // the line's unit price 0.0015 is not its first item's 0.001
      [Kind.RECONCILIATION_DIFFERENCE_KIND_TOTAL_MISMATCH, 'total/CREDIT'],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_SIGNATURE_INVALID, emitted.periodReceiptId],
    ]);
    expect(r.differences[0]).toMatchObject({
      receiptJson: '{"unit_price":"0.001","amount":"0.01","currency":"CREDIT"}',
      recomputedJson: '{"unit_price":"0.0015","amount":"0.015","currency":"CREDIT"}',
    });
    expect(r.differences[2]).toMatchObject({ receiptJson: '{"currency":"CREDIT","amount":"0.185"}', recomputedJson: '{"currency":"CREDIT","amount":"0.19"}' });
    expect(r.receiptTotals).toEqual([{ amount: '0.185', currency: 'CREDIT' }]);
  });

  it('should report a tampered meter event row as EVENT_INVALID, the receipt still matching what was signed', async () => {
    await w.sql.query('UPDATE meter_events SET quantity = 99 WHERE object_id = $1', [ids.a1]);
    try {
      const r = (await w.client.reconcilePeriodReceipt({ receipt: { $case: 'periodReceiptId', value: emitted.periodReceiptId } })).reconciliation!;
      expect(kinds(r)).toEqual([[Kind.RECONCILIATION_DIFFERENCE_KIND_EVENT_INVALID, ids.a1]]);
      expect(r.differences[0].detail).toBe('stored quantity differs from the signed payload');
      expect(r).toMatchObject({ consistent: false, signatureValid: true, recomputedTotals: [{ amount: '0.19', currency: 'CREDIT' }] });
    } finally {
      await w.sql.query('UPDATE meter_events SET quantity = 100 WHERE object_id = $1', [ids.a1]);
    }
  });

  it('should report a tampered epoch price as EPOCH_TABLE_INVALID and the items it priced as REPRICED', async () => {
    // bob: s1 storage 1 000 @E3 0.0001 = 0.1, s2 storage 500 = 0.05; signed total 0.15
    const s1 = await usage(bob.agentId, 'storage', 'E3', '2026-10-12T10:00:00.000Z', 1000);
    const s2 = await usage(bob.agentId, 'storage', 'E3', '2026-10-22T10:00:00.000Z', 500);
    // The stored price becomes 0.0002: the projection bills 1 500 × 0.0002 = 0.3.
    await w.sql.query(`UPDATE meter_epoch_prices SET unit_price = 200 WHERE epoch = 'E3' AND meter = 'storage'`);
    const p = (await w.client.createBillingProjection({ agentId: bob.agentId, period: '2026-10' })).projection!;
    expect(p.totals).toEqual([{ amount: '0.3', currency: 'CREDIT' }]);
    await w.client.attachBillingProjection({ projectionId: p.projectionId });
    const { receipt } = await w.client.emitPeriodReceipt({ agentId: bob.agentId, period: '2026-10' });
    const r = (await w.client.reconcilePeriodReceipt({ receipt: { $case: 'periodReceiptId', value: receipt!.periodReceiptId } })).reconciliation!;
    expect(kinds(r)).toEqual([
      [Kind.RECONCILIATION_DIFFERENCE_KIND_REPRICED, [s1, s2].sort()[0]],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_REPRICED, [s1, s2].sort()[1]],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_TOTAL_MISMATCH, 'total/CREDIT'],
      [Kind.RECONCILIATION_DIFFERENCE_KIND_EPOCH_TABLE_INVALID, 'E3'],
    ]);
    expect(r.differences[3].detail).toBe('the price row of storage differs from the signed table');
    expect(r).toMatchObject({ signatureValid: true, receiptTotals: [{ amount: '0.3', currency: 'CREDIT' }], recomputedTotals: [{ amount: '0.15', currency: 'CREDIT' }] });
  });

  it('should refuse what cannot be reconciled', async () => {
    const unknown = await grpcError(w.client.reconcilePeriodReceipt({ receipt: { $case: 'periodReceiptId', value: 'prc_unknown' } }));
    expect(unknown).toMatchObject({ code: 'period_receipt_not_found' });
    expect(await grpcError(w.client.reconcilePeriodReceipt({ receipt: undefined }))).toMatchObject({ code: 'validation_failed' });
    expect(await grpcError(w.client.reconcilePeriodReceipt({ receipt: { $case: 'presented', value: { payloadJson: '[1]', signature: '' } } }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'presented.payload_json' },
    });
    const draft = await w.client.attachBillingProjection({
      projectionId: (await w.client.createBillingProjection({ agentId: carol.agentId, period: '2026-11' })).projection!.projectionId,
    });
    expect(await grpcError(w.client.reconcilePeriodReceipt({ receipt: { $case: 'periodReceiptId', value: draft.receipt!.periodReceiptId } }))).toMatchObject({
      code: 'invalid_state',
      details: { current: 'draft', wanted: 'emitted' },
    });
  });

  it('should validate periods, agents and projections', async () => {
    const create = (agent: string, period: string) => grpcError(w.client.createBillingProjection({ agentId: agent, period }));
    expect(await create(carol.agentId, '2026-13')).toMatchObject({ code: 'invalid_period' });
    expect(await create(carol.agentId, '2026-12')).toMatchObject({ code: 'invalid_period' }); // not begun on 2026-11-10
    expect(await create('test:agent:nobody', '2026-10')).toMatchObject({ code: 'agent_not_found' });
    expect(await create('', '2026-10')).toMatchObject({ code: 'validation_failed' });
    expect(await grpcError(w.client.attachBillingProjection({ projectionId: 'prj_unknown' }))).toMatchObject({ code: 'billing_projection_not_found' });
    expect(await grpcError(w.client.emitPeriodReceipt({ agentId: carol.agentId, period: 'October' }))).toMatchObject({ code: 'invalid_period' });
  });

  it('should refuse projections, attach and emit in read-only mode', async () => {
    const draft = (await w.client.createBillingProjection({ agentId: carol.agentId, period: '2026-10' })).projection!;
    await w.client.setControls({ controls: { readOnly: true, killSwitches: [] }, reason: 'drill' });
    try {
      expect(await grpcError(w.client.createBillingProjection({ agentId: carol.agentId, period: '2026-10' }))).toMatchObject({ code: 'read_only' });
      expect(await grpcError(w.client.attachBillingProjection({ projectionId: draft.projectionId }))).toMatchObject({ code: 'read_only' });
    } finally {
      await w.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'drill over' });
    }
    await w.client.attachBillingProjection({ projectionId: draft.projectionId });
    await w.client.setControls({ controls: { readOnly: true, killSwitches: [] }, reason: 'drill' });
    try {
      expect(await grpcError(w.client.emitPeriodReceipt({ agentId: carol.agentId, period: '2026-10' }))).toMatchObject({ code: 'read_only' });
    } finally {
      await w.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'drill over' });
    }
    // carol has no October events: an empty receipt, total nothing.
    const { receipt } = await w.client.emitPeriodReceipt({ agentId: carol.agentId, period: '2026-10' });
    expect(JSON.parse(receipt!.payloadJson!).projection).toMatchObject({ lines: [], totals: [], items: [], event_count: 0 });
  });
});
