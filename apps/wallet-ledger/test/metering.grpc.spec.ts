import { canonicalize } from '@exchange/crypto';
import { registryV1, registryV1Wire } from '@exchange/proto';
import { keyedAgent, registryEnv, registryObjectId, startFakeRegistry, type FakeRegistry, type KeyedAgent } from './fake-registry';
import { agentId, grpcError, outboxOfType, startTestWallet, type TestWallet } from './wallet-harness';

// IngestMeterEvent / GetMeterEvent against a real wallet, the fake registry (which verifies the
// signatures with the agents' real keys) and a fixed exchange clock (2026-11-25T12:00Z).

const NOW = new Date('2026-11-25T12:00:00.000Z');
const INGESTED = 'exchange.wallet.meter_event.ingested';

let meterSeq = 0;
const meterName = (base: string) => `${base}.${process.pid}.${++meterSeq}`;

describe('IngestMeterEvent / GetMeterEvent', () => {
  const reporter = keyedAgent(agentId('reporter'));
  const subject = keyedAgent(agentId('subject'));
  const closedSubject = keyedAgent(agentId('closed'));
  let w: TestWallet;
  let reg: FakeRegistry;
  const tokens = meterName('tokens');
  const decOnly = meterName('dec-only');

  beforeAll(async () => {
    const agents = [reporter, subject, closedSubject];
    reg = await startFakeRegistry({ agents });
    w = await startTestWallet({ name: 'wallet_metering', agents, env: registryEnv(reg), clock: () => NOW });
    await w.client.createMeterEpochTable({
      epoch: 'e-oct-dec',
      effectiveFrom: new Date('2026-10-01T00:00:00Z'),
      effectiveTo: new Date('2027-01-01T00:00:00Z'),
      prices: [{ meter: tokens, unitPrice: '0.0001' }],
    });
    await w.client.createMeterEpochTable({
      epoch: 'e-dec',
      effectiveFrom: new Date('2026-12-01T00:00:00Z'),
      effectiveTo: new Date('2027-01-01T00:00:00Z'),
      prices: [{ meter: decOnly, unitPrice: '1' }],
      currency: 'USD',
    });
  });
  afterAll(async () => {
    await w.close();
    await reg.stop();
  });

  let refSeq = 0;
  const usage = (over: Record<string, unknown> = {}) => ({
    meter: tokens,
    subject_agent_id: subject.agentId,
    quantity: 1500,
    unit: 'token',
    occurred_at: '2026-11-20T10:00:00.000Z',
    epoch: 'e-oct-dec',
    ref: `r-${++refSeq}`,
    ...over,
  });
  const signedBy = (agent: KeyedAgent, payload: Record<string, unknown>, signer = agent.agentId) => ({
    signerAgentId: signer,
    payloadJson: JSON.stringify(payload),
    signature: agent.sign(payload),
  });
  const rowsOf = async (objectId: string) => (await w.sql.query('SELECT * FROM meter_events WHERE object_id = $1', [objectId])).rows;
  const eventCount = async () => (await w.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM meter_events')).rows[0].n;
  const ingestedAbout = async (objectId: string) => (await outboxOfType(w.sql, INGESTED)).filter((e) => e.data.event.objectId === objectId);

  it('ingests a signed event: priced by its epoch, stored in the registry, announced once', async () => {
    const payload = usage();
    const calls = reg.count('storeObject');
    const res = await w.client.ingestMeterEvent(signedBy(reporter, payload));
    const objectId = registryObjectId('meter_event', payload, reporter.agentId);
    expect(res.created).toBe(true);
    expect(res.event).toEqual({
      objectId,
      signerAgentId: reporter.agentId,
      signature: reporter.sign(payload),
      payloadJson: canonicalize(payload),
      meter: tokens,
      subjectAgentId: subject.agentId,
      quantity: '1500',
      unit: 'token',
      occurredAt: new Date('2026-11-20T10:00:00.000Z'),
      epoch: 'e-oct-dec',
      ref: payload.ref,
      period: '2026-11',
      unitPrice: '0.0001',
      currency: 'CREDIT',
      ingestedAt: NOW,
    });
    expect(reg.count('storeObject')).toBe(calls + 1);
    const stored = reg.fake.lastCall<registryV1.StoreObjectRequest>('storeObject').request;
    expect(registryV1Wire.visibility.toWire(stored.visibility)).toBe('parties');
    expect(stored).toMatchObject({ type: 'meter_event', payloadJson: canonicalize(payload), signerAgentId: reporter.agentId, parties: [reporter.agentId, subject.agentId], tags: [] });
    expect(reg.objects.has(objectId)).toBe(true);
    const events = await ingestedAbout(objectId);
    expect(events).toHaveLength(1);
    expect(events[0].subject).toBe(subject.agentId);
    expect(events[0].data.event).toMatchObject({ objectId, quantity: '1500', unitPrice: '0.0001', period: '2026-11' });
    expect(await rowsOf(objectId)).toHaveLength(1);
  });

  it('the same event again answers the stored one, created false, without the registry or a second event', async () => {
    const payload = usage();
    const first = await w.client.ingestMeterEvent(signedBy(reporter, payload));
    const calls = reg.count('storeObject');
    // Key order and spacing differ: the canonical payload, hence the object, is the same.
    const again = await w.client.ingestMeterEvent({ ...signedBy(reporter, payload), payloadJson: JSON.stringify(Object.fromEntries(Object.entries(payload).reverse()), null, 2) });
    expect(again).toEqual({ event: first.event, created: false });
    expect(reg.count('storeObject')).toBe(calls);
    expect(await rowsOf(first.event!.objectId)).toHaveLength(1);
    expect(await ingestedAbout(first.event!.objectId)).toHaveLength(1);
  });

  it('the same event twice at once: one row, one event, both answers name it', async () => {
    const req = signedBy(reporter, usage());
    const answers = await Promise.all([w.client.ingestMeterEvent(req), w.client.ingestMeterEvent(req), w.client.ingestMeterEvent(req)]);
    const objectId = answers[0].event!.objectId;
    expect(answers.map((a) => a.event!.objectId)).toEqual([objectId, objectId, objectId]);
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(await rowsOf(objectId)).toHaveLength(1);
    expect(await ingestedAbout(objectId)).toHaveLength(1);
  });

  it('a signature by another key is refused by the registry: object_signature_invalid, nothing kept', async () => {
    const before = await eventCount();
    const forged = signedBy(subject, usage(), reporter.agentId);
    expect(await grpcError(w.client.ingestMeterEvent(forged))).toMatchObject({ code: 'object_signature_invalid' });
    // A valid signature over another payload does not carry over either.
    const other = usage();
    const swapped = { ...signedBy(reporter, usage()), payloadJson: JSON.stringify(other) };
    expect(await grpcError(w.client.ingestMeterEvent(swapped))).toMatchObject({ code: 'object_signature_invalid' });
    expect(await eventCount()).toBe(before);
  });

  it('occurred_at more than 5 minutes ahead → 400 meter_event_in_future; up to 5 minutes is accepted', async () => {
    const future = usage({ occurred_at: '2026-11-25T12:05:00.001Z' });
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, future)))).toMatchObject({ code: 'meter_event_in_future' });
    const edge = await w.client.ingestMeterEvent(signedBy(reporter, usage({ occurred_at: '2026-11-25T12:05:00.000Z' })));
    expect(edge.created).toBe(true);
  });

  it('older than the previous month → 409 billing_period_closed; the previous month is open', async () => {
    const old = usage({ occurred_at: '2026-09-30T23:59:59.999Z' });
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, old)))).toMatchObject({ code: 'billing_period_closed', details: { period: '2026-09' } });
    const october = await w.client.ingestMeterEvent(signedBy(reporter, usage({ occurred_at: '2026-10-01T00:00:00.000Z' })));
    expect(october.event!.period).toBe('2026-10');
  });

  it('a period whose receipt was emitted is closed to its subject only', async () => {
    await w.sql.query(
      `INSERT INTO period_receipts (period_receipt_id, agent_id, period, status, projection_id, object_id, payload_json, signature, signer_public_key, emitted_at, created_at, updated_at)
       VALUES ('prc_test_closed', $1, '2026-10', 'emitted', 'prj_test', 'sha256:00', '{}', 'sig', 'key', now(), now(), now())`,
      [closedSubject.agentId],
    );
    const before = await eventCount();
    const october = usage({ subject_agent_id: closedSubject.agentId, occurred_at: '2026-10-15T00:00:00.000Z' });
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, october)))).toMatchObject({ code: 'billing_period_closed', details: { period: '2026-10' } });
    expect(await eventCount()).toBe(before);
    const november = await w.client.ingestMeterEvent(signedBy(reporter, usage({ subject_agent_id: closedSubject.agentId })));
    expect(november.created).toBe(true);
    const otherSubject = await w.client.ingestMeterEvent(signedBy(reporter, usage({ occurred_at: '2026-10-15T00:00:00.000Z' })));
    expect(otherSubject.created).toBe(true);
  });

  it('epochs: unknown → 404 epoch_not_found; not covering occurred_at or not pricing the meter → 409 epoch_mismatch', async () => {
    const calls = reg.count('storeObject');
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, usage({ epoch: 'no-such-epoch' }))))).toMatchObject({ code: 'epoch_not_found' });
    const notCovered = usage({ meter: decOnly, epoch: 'e-dec' });
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, notCovered))))
      .toMatchObject({ code: 'epoch_mismatch', details: { reason: 'not_covered' } });
    const notPriced = usage({ epoch: 'e-dec', occurred_at: '2026-11-25T11:00:00.000Z' });
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, notPriced))))
      .toMatchObject({ code: 'epoch_mismatch', details: { reason: 'meter_not_priced' } });
    expect(reg.count('storeObject')).toBe(calls);
  });

  it('an unknown subject → 404 agent_not_found', async () => {
    const stranger = usage({ subject_agent_id: agentId('nobody') });
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, stranger)))).toMatchObject({ code: 'agent_not_found' });
  });

  it.each([
    ['payload.quantity', { quantity: 0 }],
    ['payload.quantity', { quantity: '12' }],
    ['payload.occurred_at', { occurred_at: '2026-11-20T10:00:00+01:00' }],
    ['payload.meter', { meter: 'Bad Meter' }],
    ['payload.unit', { unit: '' }],
    ['payload.epoch', { epoch: '.x' }],
    ['payload.ref', { ref: 'x'.repeat(129) }],
    ['payload.extra', { extra: true }],
    ['payload.subject_agent_id', { subject_agent_id: 'bob' }],
  ])('refuses a bad payload: 400 validation_failed naming %s', async (field, over) => {
    expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, usage(over))))).toMatchObject({ code: 'validation_failed', details: { field } });
  });

  it('refuses a bad signer, signature or payload text', async () => {
    const ok = signedBy(reporter, usage());
    expect(await grpcError(w.client.ingestMeterEvent({ ...ok, signerAgentId: 'reporter' }))).toMatchObject({ details: { field: 'signer_agent_id' } });
    expect(await grpcError(w.client.ingestMeterEvent({ ...ok, signature: 'AAAA' }))).toMatchObject({ details: { field: 'signature' } });
    expect(await grpcError(w.client.ingestMeterEvent({ ...ok, payloadJson: '"text"' }))).toMatchObject({ details: { field: 'payload_json' } });
  });

  it('read-only mode → 503 read_only: nothing kept, nothing sent to the registry', async () => {
    const before = await eventCount();
    const calls = reg.count('storeObject');
    await w.client.setControls({ controls: { readOnly: true, killSwitches: [] }, reason: 'drill' });
    try {
      expect(await grpcError(w.client.ingestMeterEvent(signedBy(reporter, usage())))).toMatchObject({ code: 'read_only' });
    } finally {
      await w.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'drill over' });
    }
    expect(await eventCount()).toBe(before);
    expect(reg.count('storeObject')).toBe(calls);
  });

  it('GetMeterEvent: the signer, the subject and the operator see it; anyone else gets 404', async () => {
    const { event } = await w.client.ingestMeterEvent(signedBy(reporter, usage()));
    const objectId = event!.objectId;
    for (const viewer of [reporter.agentId, subject.agentId, undefined]) {
      expect((await w.client.getMeterEvent({ objectId, viewerAgentId: viewer })).event).toEqual(event);
    }
    expect(await grpcError(w.client.getMeterEvent({ objectId, viewerAgentId: closedSubject.agentId }))).toMatchObject({ code: 'meter_event_not_found' });
    expect(await grpcError(w.client.getMeterEvent({ objectId: 'sha256:' + '0'.repeat(64) }))).toMatchObject({ code: 'meter_event_not_found' });
  });
});
