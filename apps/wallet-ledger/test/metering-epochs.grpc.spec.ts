import { canonicalize, verifyCanonical } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { registryV1, registryV1Wire } from '@exchange/proto';
import { keyedAgent, registryEnv, registryObjectId, startFakeRegistry, type FakeRegistry } from './fake-registry';
import { agentId, grpcError, outboxOfType, startTestWallet, type TestWallet } from './wallet-harness';

// CreateMeterEpochTable / GetMeterEpochTable against a real wallet and the fake registry, and the
// wallet without a registry (REGISTRY_GRPC_URL unset).

const CREATED = 'exchange.wallet.meter_epoch_table.created';
const d = (iso: string) => new Date(iso);
const NOV = { effectiveFrom: d('2026-11-01T00:00:00Z'), effectiveTo: d('2026-12-01T00:00:00Z') };
const DEC = { effectiveFrom: d('2026-12-01T00:00:00Z'), effectiveTo: d('2027-01-01T00:00:00Z') };

let seq = 0;
const fresh = (base: string) => `${base}.${process.pid}.${++seq}`;

async function storedCounts(w: TestWallet): Promise<{ tables: number; prices: number; events: number }> {
  const n = async (sql: string) => (await w.sql.query<{ n: number }>(sql)).rows[0].n;
  return {
    tables: await n('SELECT count(*)::int AS n FROM meter_epoch_tables'),
    prices: await n('SELECT count(*)::int AS n FROM meter_epoch_prices'),
    events: await n(`SELECT count(*)::int AS n FROM outbox_events WHERE type LIKE 'exchange.wallet.meter%'`),
  };
}

describe('CreateMeterEpochTable / GetMeterEpochTable', () => {
  let w: TestWallet;
  let reg: FakeRegistry;

  beforeAll(async () => {
    reg = await startFakeRegistry();
    w = await startTestWallet({ name: 'wallet_metering_epochs', env: registryEnv(reg) });
  });
  afterAll(async () => {
    await w.close();
    await reg.stop();
  });

  it('creates an exchange-signed table: sorted prices, canonical payload, registry object, event', async () => {
    const [a, b] = [fresh('zeta'), fresh('alpha')];
    const epoch = fresh('E');
    const res = await w.client.createMeterEpochTable({ epoch, ...NOV, prices: [{ meter: a, unitPrice: '0.500' }, { meter: b, unitPrice: '3' }] });
    const payload = { epoch, effective_from: '2026-11-01T00:00:00.000Z', effective_to: '2026-12-01T00:00:00.000Z', prices: { [a]: '0.5', [b]: '3' }, currency: 'CREDIT' };
    const table = res.table!;
    expect(res.created).toBe(true);
    expect(table).toMatchObject({
      objectId: registryObjectId('meter_epoch_table', payload, 'exchange'),
      epoch,
      ...NOV,
      prices: [{ meter: b, unitPrice: '3' }, { meter: a, unitPrice: '0.5' }],
      currency: 'CREDIT',
      payloadJson: canonicalize(payload),
      signerPublicKey: reg.exchangePublicKey,
    });
    expect(verifyCanonical(payload, table.signature, reg.exchangePublicKey)).toBe(true);
    const call = reg.fake.lastCall<registryV1.StoreExchangeObjectRequest>('storeExchangeObject').request;
    expect(call).toMatchObject({ type: 'meter_epoch_table', payloadJson: canonicalize(payload), parties: [], tags: [] });
    expect(registryV1Wire.visibility.toWire(call.visibility)).toBe('operator');
    expect((await w.client.getMeterEpochTable({ objectId: table.objectId })).table).toEqual(table);
    const events = (await outboxOfType(w.sql, CREATED)).filter((e) => e.subject === epoch);
    expect(events).toHaveLength(1);
    expect(events[0].data.table).toMatchObject({ objectId: table.objectId, epoch });
  });

  it('the identical table again → created false, nothing new; other content under the name → 409 epoch_exists', async () => {
    const epoch = fresh('E');
    const req = { epoch, ...NOV, prices: [{ meter: fresh('m'), unitPrice: '1' }], currency: 'USD' };
    const first = await w.client.createMeterEpochTable(req);
    const calls = reg.count('storeExchangeObject');
    const counts = await storedCounts(w);
    expect(await w.client.createMeterEpochTable({ ...req, prices: [{ meter: req.prices[0].meter, unitPrice: '1.000000' }] })).toEqual({ table: first.table, created: false });
    expect(await grpcError(w.client.createMeterEpochTable({ ...req, currency: 'EUR' }))).toMatchObject({ code: 'epoch_exists', details: { epoch } });
    expect(await grpcError(w.client.createMeterEpochTable({ ...req, ...DEC }))).toMatchObject({ code: 'epoch_exists' });
    expect(reg.count('storeExchangeObject')).toBe(calls);
    expect(await storedCounts(w)).toEqual(counts);
  });

  it('overlapping ranges of one meter → 409 epoch_overlap naming it; adjacent ranges, or overlaps of other meters, are fine', async () => {
    const [shared, other, third] = [fresh('shared'), fresh('other'), fresh('third')];
    const nov = fresh('E-nov');
    await w.client.createMeterEpochTable({ epoch: nov, ...NOV, prices: [{ meter: shared, unitPrice: '1' }, { meter: other, unitPrice: '1' }] });
    const counts = await storedCounts(w);
    const straddle = { effectiveFrom: d('2026-11-30T00:00:00Z'), effectiveTo: d('2026-12-15T00:00:00Z') };
    expect(await grpcError(w.client.createMeterEpochTable({ epoch: fresh('E-x'), ...straddle, prices: [{ meter: third, unitPrice: '1' }, { meter: shared, unitPrice: '2' }] })))
      .toMatchObject({ code: 'epoch_overlap', details: { meter: shared, other_epoch: nov } });
    expect(await storedCounts(w)).toEqual(counts);
    // December starts where November ends: [a, b) and [b, c) do not overlap.
    expect((await w.client.createMeterEpochTable({ epoch: fresh('E-dec'), ...DEC, prices: [{ meter: shared, unitPrice: '2' }] })).created).toBe(true);
    // The same November range for a meter no other epoch prices.
    expect((await w.client.createMeterEpochTable({ epoch: fresh('E-nov-third'), ...NOV, prices: [{ meter: third, unitPrice: '2' }] })).created).toBe(true);
  });

  it('a registry failure rolls everything back (503 registry_unavailable); a retry then succeeds', async () => {
    const req = { epoch: fresh('E'), ...NOV, prices: [{ meter: fresh('m'), unitPrice: '1' }] };
    const counts = await storedCounts(w);
    reg.fake.failNext('storeExchangeObject', errors.unavailable('registry_unavailable', 'down for the test'));
    expect(await grpcError(w.client.createMeterEpochTable(req))).toMatchObject({ code: 'registry_unavailable' });
    expect(await storedCounts(w)).toEqual(counts);
    expect((await w.client.createMeterEpochTable(req)).created).toBe(true);
  });

  it('read-only mode → 503 read_only, nothing stored', async () => {
    const counts = await storedCounts(w);
    const calls = reg.count('storeExchangeObject');
    await w.client.setControls({ controls: { readOnly: true, killSwitches: [] }, reason: 'drill' });
    try {
      expect(await grpcError(w.client.createMeterEpochTable({ epoch: fresh('E'), ...NOV, prices: [{ meter: fresh('m'), unitPrice: '1' }] })))
        .toMatchObject({ code: 'read_only' });
    } finally {
      await w.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'drill over' });
    }
    expect(reg.count('storeExchangeObject')).toBe(calls);
    expect((await storedCounts(w)).tables).toBe(counts.tables);
  });

  it.each([
    ['epoch', { epoch: 'bad name' }],
    ['effective_from', { effectiveFrom: undefined }],
    ['effective_to', { effectiveTo: d('2026-11-01T00:00:00Z') }],
    ['prices', { prices: [] }],
    ['prices[0].meter', { prices: [{ meter: 'UPPER', unitPrice: '1' }] }],
    ['prices[1].meter', { prices: [{ meter: 'twice', unitPrice: '1' }, { meter: 'twice', unitPrice: '2' }] }],
    ['prices[0].unit_price', { prices: [{ meter: 'm', unitPrice: '1.0000001' }] }],
    ['prices[0].unit_price', { prices: [{ meter: 'm', unitPrice: '-1' }] }],
  ])('refuses a bad request: 400 validation_failed naming %s', async (field, over) => {
    const req = { epoch: fresh('E'), ...NOV, prices: [{ meter: fresh('m'), unitPrice: '1' }], ...over };
    expect(await grpcError(w.client.createMeterEpochTable(req))).toMatchObject({ code: 'validation_failed', details: { field } });
  });

  it('an unsupported currency → 400 unsupported_currency; an unknown table → 404 meter_epoch_table_not_found', async () => {
    expect(await grpcError(w.client.createMeterEpochTable({ epoch: fresh('E'), ...NOV, prices: [{ meter: fresh('m'), unitPrice: '1' }], currency: 'XXX1' })))
      .toMatchObject({ code: 'unsupported_currency' });
    expect(await grpcError(w.client.getMeterEpochTable({ objectId: 'sha256:' + '0'.repeat(64) }))).toMatchObject({ code: 'meter_epoch_table_not_found' });
  });
});

describe('metering without a registry (REGISTRY_GRPC_URL unset)', () => {
  const reporter = keyedAgent(agentId('reporter'));
  let w: TestWallet;

  beforeAll(async () => {
    w = await startTestWallet({ name: 'wallet_metering_noreg', agents: [reporter], clock: () => d('2026-11-25T12:00:00Z') });
  });
  afterAll(async () => {
    await w.close();
  });

  it('epoch tables and meter events answer 503 registry_unavailable and nothing is stored', async () => {
    expect(await grpcError(w.client.createMeterEpochTable({ epoch: 'E1', ...NOV, prices: [{ meter: 'm', unitPrice: '1' }] }))).toMatchObject({
      code: 'registry_unavailable',
    });
    expect(await storedCounts(w)).toEqual({ tables: 0, prices: 0, events: 0 });
    // An epoch as if created before the registry went away, so ingest gets as far as the registry call.
    await w.sql.query(
      `INSERT INTO meter_epoch_tables (object_id, epoch, effective_from, effective_to, currency, payload_json, signature, signer_public_key, created_at)
       VALUES ('sha256:e1', 'E1', $1, $2, 'CREDIT', '{}', 'sig', 'key', now())`,
      [NOV.effectiveFrom, NOV.effectiveTo],
    );
    await w.sql.query(`INSERT INTO meter_epoch_prices (epoch, meter, effective_from, effective_to, unit_price, currency) VALUES ('E1', 'm', $1, $2, 1000000, 'CREDIT')`, [
      NOV.effectiveFrom,
      NOV.effectiveTo,
    ]);
    const payload = { meter: 'm', subject_agent_id: reporter.agentId, quantity: 1, unit: 'call', occurred_at: '2026-11-20T00:00:00.000Z', epoch: 'E1' };
    expect(await grpcError(w.client.ingestMeterEvent({ signerAgentId: reporter.agentId, payloadJson: JSON.stringify(payload), signature: reporter.sign(payload) })))
      .toMatchObject({ code: 'registry_unavailable' });
    expect((await w.sql.query('SELECT 1 FROM meter_events')).rows).toHaveLength(0);
    expect((await outboxOfType(w.sql, 'exchange.wallet.meter_event.ingested')).length).toBe(0);
  });
});
