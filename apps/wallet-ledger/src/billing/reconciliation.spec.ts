import type { CheckedEpochTable, CheckedMeterEvent } from './evidence';
import { projectEvents, type BillingItem } from './projection';
import type { ReceiptDocument } from './receipt-payload';
import { reconcile } from './reconciliation';

// E1 prices api.calls 0.001 (1 000 micro) and tokens 0.000002 (2); E2 prices api.calls 0.0015 (1 500).
const E1: CheckedEpochTable = { epoch: 'E1', currency: 'CREDIT', prices: new Map([['api.calls', 1_000n], ['tokens', 2n]]), problems: [] };
const E2: CheckedEpochTable = { epoch: 'E2', currency: 'CREDIT', prices: new Map([['api.calls', 1_500n]]), problems: [] };
const event = (objectId: string, meter: string, epoch: string, occurredAt: string, quantity: bigint): CheckedMeterEvent => ({
  objectId,
  meter,
  epoch,
  occurredAt: new Date(occurredAt),
  quantity,
  problems: [],
});
const EVENTS = [
  event('sha256:a', 'api.calls', 'E1', '2026-10-05T00:00:00Z', 100n), // 100 × 1 000 = 100 000 (0.1)
  event('sha256:b', 'tokens', 'E1', '2026-10-06T00:00:00Z', 5_000n), // 5 000 × 2 = 10 000 (0.01)
  event('sha256:d', 'api.calls', 'E2', '2026-10-20T00:00:00Z', 10n), // 10 × 1 500 = 15 000 (0.015)
]; // total 125 000 (0.125)

const price = (e: CheckedMeterEvent) => ({ ...e, unitPrice: (e.epoch === 'E1' ? E1 : E2).prices.get(e.meter)!, currency: 'CREDIT' });
const receiptOf = (figures = projectEvents(EVENTS.map(price))): ReceiptDocument => ({
  periodReceiptId: 'prc_1',
  agentId: 'test:agent:a',
  period: '2026-10',
  projectionId: 'prj_1',
  figures,
  computedAt: new Date('2026-11-10T12:00:00Z'),
  emittedAt: new Date('2026-11-10T12:00:00Z'),
});
const run = (receipt: ReceiptDocument, over: Partial<Parameters<typeof reconcile>[0]> = {}) =>
  reconcile({ receipt, signatureValid: true, events: EVENTS, epochs: [E1, E2], ...over });
const kinds = (r: ReturnType<typeof reconcile>) => r.differences.map((d) => `${d.kind} ${d.ref}`);
/** The receipt's figures with its items edited and lines/totals either recomputed from them or kept. */
function edited(edit: (items: BillingItem[]) => BillingItem[], keep: 'kept' | 'recomputed'): ReceiptDocument {
  const base = receiptOf();
  const items = edit(base.figures.items.map((i) => ({ ...i })));
  if (keep === 'kept') return receiptOf({ ...base.figures, items });
  const again = projectEvents(items);
  return receiptOf({ ...again, items });
}

describe('reconciliation', () => {
  it('should find the receipt of the events consistent, with the totals on both sides', () => {
    const r = run(receiptOf());
    expect(r).toEqual({
      consistent: true,
      differences: [],
      receiptTotals: [{ currency: 'CREDIT', amount: 125_000n }],
      recomputedTotals: [{ currency: 'CREDIT', amount: 125_000n }],
      receiptEventCount: 3,
      recomputedEventCount: 3,
    });
  });

  it('should list a stored event the receipt lacks as MISSING, and the kept totals as TOTAL_MISMATCH', () => {
    const r = run(edited((items) => items.filter((i) => i.objectId !== 'sha256:b'), 'kept'));
    // Lines kept: tokens/E1 says 5 000 / 0.01 / 1 event, the items now sum to nothing.
    expect(kinds(r)).toEqual(['missing sha256:b', 'total_mismatch tokens/E1']);
    expect(r.differences[0]).toMatchObject({ receiptJson: '', recomputedJson: expect.stringContaining('"amount":"0.01"') });
  });

  it('should list only MISSING and the totals against the events when the receipt re-summed its items', () => {
    const r = run(edited((items) => items.filter((i) => i.objectId !== 'sha256:b'), 'recomputed'));
    // receipt 100 000 + 15 000 = 115 000 (0.115) against 125 000 (0.125)
    expect(kinds(r)).toEqual(['missing sha256:b', 'total_mismatch total/CREDIT']);
    expect(r.differences[1]).toMatchObject({ receiptJson: '{"currency":"CREDIT","amount":"0.115"}', recomputedJson: '{"currency":"CREDIT","amount":"0.125"}' });
  });

  it('should list an item that is no stored event as EXTRA, and a duplicate too', () => {
    const forged = { ...EVENTS[0], objectId: 'sha256:f', unitPrice: 1_000n, currency: 'CREDIT', amount: 100_000n };
    const r = run(edited((items) => [...items, forged, { ...items[0] }], 'recomputed'));
    // 125 000 + 100 000 (forged) + 100 000 (a again) = 325 000 against 125 000
    expect(kinds(r)).toEqual(['extra sha256:a', 'extra sha256:f', 'total_mismatch total/CREDIT']);
  });

  it('should list a changed quantity as ALTERED and a changed price as REPRICED', () => {
    const r = run(
      edited(
        (items) =>
          items.map((i) =>
            i.objectId === 'sha256:a' ? { ...i, quantity: 90n, amount: 90_000n } : i.objectId === 'sha256:d' ? { ...i, unitPrice: 1_000n, amount: 10_000n } : i,
          ),
        'recomputed',
      ),
    );
    // receipt 90 000 + 10 000 + 10 000 = 110 000 (0.11) against 125 000
    expect(kinds(r)).toEqual(['repriced sha256:d', 'altered sha256:a', 'total_mismatch total/CREDIT']);
    expect(r.differences[0]).toMatchObject({
      receiptJson: '{"unit_price":"0.001","amount":"0.01","currency":"CREDIT"}',
      recomputedJson: '{"unit_price":"0.0015","amount":"0.015","currency":"CREDIT"}',
    });
    expect(r.differences[1].receiptJson).toContain('"quantity":"90"');
  });

  it('should list an amount that is not quantity × unit price as REPRICED', () => {
    const r = run(edited((items) => items.map((i) => (i.objectId === 'sha256:a' ? { ...i, amount: 1n } : i)), 'kept'));
    // the line api.calls/E1 still says 0.1 while its item now says 0.000001
    expect(kinds(r)).toEqual(['repriced sha256:a', 'total_mismatch api.calls/E1']);
  });

  it('should list a total that is not the sum of the lines', () => {
    const base = receiptOf();
    const r = run(receiptOf({ ...base.figures, totals: [{ currency: 'CREDIT', amount: 125_001n }] }));
    expect(r.differences.map((d) => d.detail)).toEqual(["the receipt's total is not what the meter events price to", "the total is not the sum of the receipt's lines"]);
  });

  it('should list a line that has no items, and items without a line', () => {
    const base = receiptOf();
    const lines = [...base.figures.lines.filter((l) => l.meter !== 'tokens'), { ...base.figures.lines[0], meter: 'bytes' }];
    expect(kinds(run(receiptOf({ ...base.figures, lines })))).toEqual(['total_mismatch bytes/E1', 'total_mismatch tokens/E1', 'total_mismatch total/CREDIT']);
  });

  it('should report invalid evidence and a bad signature, and price with the signed values', () => {
    const r = run(receiptOf(), {
      signatureValid: false,
      events: [EVENTS[0], { ...EVENTS[1], problems: ['stored quantity differs from the signed payload'] }, EVENTS[2]],
      epochs: [E1, { ...E2, problems: ['the price row of api.calls differs from the signed table'] }],
    });
    expect(kinds(r)).toEqual(['event_invalid sha256:b', 'epoch_table_invalid E2', 'signature_invalid prc_1']);
    expect(r.recomputedTotals).toEqual([{ currency: 'CREDIT', amount: 125_000n }]);
  });

  it('should report an epoch that does not price the event\'s meter once', () => {
    const r = run(receiptOf(), { epochs: [{ ...E1, prices: new Map([['tokens', 2n]]) }, E2] });
    // a (api.calls/E1) recomputes at 0: 125 000 − 100 000 = 25 000
    expect(kinds(r)).toEqual(['repriced sha256:a', 'total_mismatch total/CREDIT', 'epoch_table_invalid E1']);
  });

  it('should reconcile an empty period to an empty receipt', () => {
    expect(run(receiptOf(projectEvents([])), { events: [] }).consistent).toBe(true);
  });
});
