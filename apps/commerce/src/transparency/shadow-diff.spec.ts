import { cartKey, cartPairs } from './cart-key';
import { compareShadows } from './shadow-compare';
import { closestInTime, diffSnapshots, snapshotOf, unavailableItems, type SessionFacts } from './shadow-diff';

const at = (iso: string) => new Date(iso);
const roses = (q: number) => ({ item: { id: 'bouquet_roses' }, quantity: q });
const pot = (q: number) => ({ item: { id: 'pot_ceramic', title: 'ignored' }, quantity: q });

function facts(over: Partial<SessionFacts> = {}): SessionFacts {
  return {
    commerceSessionId: 'cs_live',
    buyerAgentId: 'buyer',
    merchantDomain: 'sandbox-merchant.local',
    status: 'ready_for_complete',
    approval: 'not_required',
    currency: 'USD',
    total: 70_000_000n,
    listTotal: 70_000_000n,
    discountCodes: [],
    lineItems: [roses(2)],
    messages: [],
    createdAt: at('2026-11-01T10:00:00Z'),
    ...over,
  };
}

describe('cart key', () => {
  it('should not depend on line order, extra fields or how a quantity is split', () => {
    expect(cartKey([roses(2), pot(1)])).toBe(cartKey([pot(1), roses(1), roses(1)]));
    expect(cartPairs([pot(1), roses(2)])).toEqual([['bouquet_roses', 2], ['pot_ceramic', 1]]);
    expect(cartKey([roses(2)])).not.toBe(cartKey([roses(3)]));
    expect(cartKey([roses(2)])).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('unavailable items', () => {
  it('should name the buyer line each out-of-stock or unavailable message points at, once, sorted', () => {
    const lines = [roses(1), { item: { id: 'gardenias' }, quantity: 1 }, { item: { id: 'zzz' }, quantity: 1 }];
    const messages = [
      { type: 'error' as const, code: 'out_of_stock', content: 'x', path: '$.line_items[1]' },
      { type: 'error' as const, code: 'item_unavailable', content: 'x', path: '$.line_items[2]' },
      { type: 'error' as const, code: 'out_of_stock', content: 'again', path: '$.line_items[1].quantity' },
      { type: 'warning' as const, code: 'discount_code_invalid', content: 'x', path: '$.line_items[0]' },
      { type: 'error' as const, code: 'out_of_stock', content: 'no path' },
      { type: 'error' as const, code: 'out_of_stock', content: 'past the end', path: '$.line_items[9]' },
    ];
    expect(unavailableItems(messages, lines)).toEqual(['gardenias', 'zzz']);
  });
});

describe('shadow diff', () => {
  it('should list nothing for identical sessions', () => {
    expect(diffSnapshots(snapshotOf(facts({ commerceSessionId: 'cs_shadow' })), snapshotOf(facts()))).toEqual([]);
  });

  it('should list every differing field with both values as text, in a fixed order', () => {
    const shadow = snapshotOf(
      facts({ commerceSessionId: 'cs_shadow', total: 63_000_000n, discountCodes: ['ten'], approval: 'pending', status: 'requires_escalation', messages: [{ type: 'error', code: 'out_of_stock', content: 'x', path: '$.line_items[0]' }] }),
    );
    const live = snapshotOf(facts());
    // savings: 70 − 63 = 7 in the shadow, 0 live.
    expect(diffSnapshots(shadow, live)).toEqual([
      { field: 'status', shadow: 'requires_escalation', live: 'ready_for_complete' },
      { field: 'approval', shadow: 'pending', live: 'not_required' },
      { field: 'total', shadow: '63', live: '70' },
      { field: 'savings', shadow: '7', live: '0' },
      { field: 'discount_codes', shadow: 'TEN', live: '' },
      { field: 'unavailable_items', shadow: 'bouquet_roses', live: '' },
    ]);
  });

  it('should compare currency and list totals, and never show negative savings', () => {
    const shadow = snapshotOf(facts({ currency: 'EUR', listTotal: 80_500_000n }));
    const live = snapshotOf(facts({ listTotal: 60_000_000n }));
    expect(live.savings).toBe(0n);
    expect(diffSnapshots(shadow, live).map((d) => [d.field, d.shadow, d.live])).toEqual([
      ['currency', 'EUR', 'USD'],
      ['list_total', '80.5', '60'],
      ['savings', '10.5', '0'],
    ]);
  });

  it('should pick the closest candidate, the earlier one on a tie', () => {
    const a = { commerceSessionId: 'cs_a', createdAt: at('2026-11-01T09:00:00Z') };
    const b = { commerceSessionId: 'cs_b', createdAt: at('2026-11-01T11:00:00Z') };
    const c = { commerceSessionId: 'cs_c', createdAt: at('2026-11-01T10:30:00Z') };
    expect(closestInTime(at('2026-11-01T10:00:00Z'), [a, b])?.commerceSessionId).toBe('cs_a');
    expect(closestInTime(at('2026-11-01T10:00:00Z'), [b, a, c])?.commerceSessionId).toBe('cs_c');
    expect(closestInTime(at('2026-11-01T10:00:00Z'), [])).toBeNull();
  });
});

describe('compareShadows', () => {
  it('should match on buyer, merchant and cart only, and sum the window', () => {
    const shadows = [
      facts({ commerceSessionId: 'cs_s1', total: 63_000_000n, discountCodes: ['TEN'] }),
      facts({ commerceSessionId: 'cs_s2', lineItems: [roses(1), roses(1)] }),
      facts({ commerceSessionId: 'cs_s3', lineItems: [roses(5)] }),
      facts({ commerceSessionId: 'cs_s4', buyerAgentId: 'other' }),
    ];
    const lives = [facts({ commerceSessionId: 'cs_l1' }), facts({ commerceSessionId: 'cs_l2', merchantDomain: 'elsewhere.example', lineItems: [roses(5)] })];
    const { comparisons, summary } = compareShadows(shadows, lives);
    expect(comparisons.map((c) => [c.shadow.commerceSessionId, c.live?.commerceSessionId ?? null, c.differences.length])).toEqual([
      ['cs_s1', 'cs_l1', 3],
      ['cs_s2', 'cs_l1', 0],
      ['cs_s3', null, 0],
      ['cs_s4', null, 0],
    ]);
    expect(comparisons[0].cartKey).toBe(cartKey([roses(2)]));
    expect(summary).toEqual({ shadowSessions: 4, matched: 2, withDifferences: 1 });
  });
});
