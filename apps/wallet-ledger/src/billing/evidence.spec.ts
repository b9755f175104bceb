import { canonicalize, generateKeyPair, signCanonical, toBase64 } from '@exchange/crypto';
import { registryObjectId } from '../metering/object-id';
import { checkEpochTable, checkMeterEvent, checkMeterEvents, METER_CHECKS_AT_ONCE, type StoredEpochPrice, type StoredEpochTable, type StoredMeterEvent } from './evidence';

const reporter = generateKeyPair();
const reporterKey = toBase64(reporter.publicKey);
const exchange = generateKeyPair();
const exchangeKey = toBase64(exchange.publicKey);

const eventPayload = { meter: 'api.calls', subject_agent_id: 'test:agent:a', quantity: '100', unit: 'call', occurred_at: '2026-10-05T00:00:00.000Z', epoch: 'E1' };
const eventRow = (over: Partial<StoredMeterEvent> = {}, payload: object = eventPayload): StoredMeterEvent => ({
  objectId: registryObjectId('meter_event', payload, 'test:agent:r'),
  signerAgentId: 'test:agent:r',
  subjectAgentId: 'test:agent:a',
  meter: 'api.calls',
  quantity: 100n,
  unit: 'call',
  occurredAt: new Date('2026-10-05T00:00:00Z'),
  epoch: 'E1',
  ref: null,
  payloadJson: canonicalize(payload),
  signature: signCanonical(payload, reporter.privateKey),
  ...over,
});

describe('meter event evidence', () => {
  it('should accept a row equal to its signed payload', async () => {
    expect(await checkMeterEvent(eventRow(), [reporterKey])).toEqual({
      objectId: eventRow().objectId,
      meter: 'api.calls',
      epoch: 'E1',
      occurredAt: new Date('2026-10-05T00:00:00Z'),
      quantity: 100n,
      problems: [],
    });
  });

  it('should accept any of the signer\'s keys, and a numeric quantity in the payload', async () => {
    const payload = { ...eventPayload, quantity: 100, ref: 'r-1' };
    const row = eventRow({ ref: 'r-1', signature: signCanonical(payload, reporter.privateKey) }, payload);
    expect((await checkMeterEvent(row, [toBase64(generateKeyPair().publicKey), reporterKey])).problems).toEqual([]);
  });

  it('should report a tampered quantity column and price the signed quantity', async () => {
    const checked = await checkMeterEvent(eventRow({ quantity: 1n }), [reporterKey]);
    expect(checked.problems).toEqual(['stored quantity differs from the signed payload']);
    expect(checked.quantity).toBe(100n);
  });

  it('should report a signature no key of the signer verifies', async () => {
    expect((await checkMeterEvent(eventRow(), [toBase64(generateKeyPair().publicKey)])).problems).toEqual(['signature does not verify with a key of test:agent:r']);
  });

  it('should report a payload that is not the object id\'s (and then not the signature\'s either)', async () => {
    const row = eventRow({ payloadJson: canonicalize({ ...eventPayload, quantity: '1' }), quantity: 1n });
    expect((await checkMeterEvent(row, [reporterKey])).problems).toEqual(['object id does not match the payload', 'signature does not verify with a key of test:agent:r']);
  });

  it('should report a payload no signer could have signed (not canonicalizable: 1e400 parses to Infinity) instead of failing', async () => {
    const row = eventRow({ payloadJson: '{"meter":"api.calls","quantity":1e400}' });
    expect(await checkMeterEvent(row, [reporterKey])).toMatchObject({ quantity: 100n, problems: ['payload_json cannot be canonicalized (RFC 8785), so nothing signed it'] });
  });

  it('should check every row of a period in order, past the rows checked at once (checkMeterEvents)', async () => {
    const tampered = new Set([METER_CHECKS_AT_ONCE - 1, METER_CHECKS_AT_ONCE, 2 * METER_CHECKS_AT_ONCE]);
    const rows = Array.from({ length: 2 * METER_CHECKS_AT_ONCE + 1 }, (_, i) => eventRow({ objectId: `obj-${i}`, quantity: tampered.has(i) ? 1n : 100n }));
    const keysAsked: string[] = [];
    const checked = await checkMeterEvents(rows, (signer) => {
      keysAsked.push(signer);
      return [reporterKey];
    });
    expect(checked.map((c) => c.objectId)).toEqual(rows.map((r) => r.objectId));
    const withProblems = checked.flatMap((c, i) => (c.problems.includes('stored quantity differs from the signed payload') ? [i] : []));
    expect(withProblems).toEqual([...tampered]);
    expect(keysAsked).toHaveLength(rows.length);
  });

  it('should report a payload that is not JSON and keep the row\'s values', async () => {
    expect(await checkMeterEvent(eventRow({ payloadJson: 'x' }), [reporterKey])).toMatchObject({ quantity: 100n, problems: ['payload_json is not a JSON object'] });
  });
});

const tablePayload = {
  epoch: 'E1',
  effective_from: '2026-10-01T00:00:00.000Z',
  effective_to: '2026-10-16T00:00:00.000Z',
  prices: { 'api.calls': '0.001', tokens: '0.000002' },
  currency: 'CREDIT',
};
const table = (over: Partial<StoredEpochTable> = {}): StoredEpochTable => ({
  objectId: registryObjectId('meter_epoch_table', tablePayload, 'exchange'),
  epoch: 'E1',
  effectiveFrom: new Date('2026-10-01T00:00:00Z'),
  effectiveTo: new Date('2026-10-16T00:00:00Z'),
  currency: 'CREDIT',
  payloadJson: canonicalize(tablePayload),
  signature: signCanonical(tablePayload, exchange.privateKey),
  ...over,
});
const price = (meter: string, unitPrice: bigint): StoredEpochPrice => ({
  meter,
  unitPrice,
  currency: 'CREDIT',
  effectiveFrom: new Date('2026-10-01T00:00:00Z'),
  effectiveTo: new Date('2026-10-16T00:00:00Z'),
});
const ROWS = [price('api.calls', 1_000n), price('tokens', 2n)];

describe('epoch table evidence', () => {
  it('should report a table payload no signer could have signed (not canonicalizable) instead of failing', () => {
    const payloadJson = JSON.stringify(tablePayload).replace('"currency":"CREDIT"', '"currency":"CREDIT","x":1e400');
    expect(checkEpochTable('E1', table({ payloadJson }), ROWS, exchangeKey).problems).toEqual(['payload_json cannot be canonicalized (RFC 8785), so nothing signed it']);
  });

  it('should accept a table and price rows equal to the signed payload, with its prices in micro-units', () => {
    const checked = checkEpochTable('E1', table(), ROWS, exchangeKey);
    expect(checked).toEqual({ epoch: 'E1', currency: 'CREDIT', prices: new Map([['api.calls', 1_000n], ['tokens', 2n]]), problems: [] });
  });

  it('should report a tampered price row and keep the signed price', () => {
    const checked = checkEpochTable('E1', table(), [price('api.calls', 1n), price('tokens', 2n)], exchangeKey);
    expect(checked.problems).toEqual(['the price row of api.calls differs from the signed table']);
    expect(checked.prices.get('api.calls')).toBe(1_000n);
  });

  it('should report a missing and an unpriced row', () => {
    expect(checkEpochTable('E1', table(), [price('api.calls', 1_000n), price('bytes', 1n)], exchangeKey).problems).toEqual([
      'a price row for bytes, which the table does not price',
      'no price row for tokens',
    ]);
  });

  it('should report a signature that is not the exchange\'s', () => {
    expect(checkEpochTable('E1', table(), ROWS, toBase64(generateKeyPair().publicKey)).problems).toEqual(['signature does not verify with the exchange key']);
  });

  it('should report a stored range that is not the signed one', () => {
    expect(checkEpochTable('E1', table({ effectiveTo: new Date('2026-10-17T00:00:00Z') }), ROWS, exchangeKey).problems).toEqual([
      'stored effective_to differs from the signed payload',
      'the price row of api.calls differs from the signed table',
      'the price row of tokens differs from the signed table',
    ]);
  });

  it('should report a table that is not stored, pricing with its rows', () => {
    expect(checkEpochTable('E9', undefined, ROWS, exchangeKey)).toMatchObject({ prices: new Map([['api.calls', 1_000n], ['tokens', 2n]]), problems: ['the epoch table is not stored'] });
  });
});
