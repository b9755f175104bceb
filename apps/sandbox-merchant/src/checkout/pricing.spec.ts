import { buildCatalog } from '../catalog/catalog';
import { priceCart, totalsAddUp } from './pricing';

const catalog = buildCatalog({
  products: 'id,title,price,image_url\nrose,Rose,3500,\npot,Pot,1500,\n',
  inventory: 'product_id,quantity\nrose,10\npot,1\n',
  discounts: 'code,type,value,description\n10OFF,percentage,10,10% Off\nFIXED500,fixed_amount,500,$5 Off\nBIG,fixed_amount,99999,Big\n',
  sandboxDiscounts: 'code,type,value,description,expires_at\nOLD,percentage,50,Old,2020-01-01T00:00:00Z\n',
});
const now = Date.parse('2026-11-24T00:00:00Z');

describe('priceCart', () => {
  it('prices lines with subtotal and total per line and for the order', () => {
    const p = priceCart([{ itemId: 'rose', quantity: 2 }, { itemId: 'pot', quantity: 1 }], [], catalog, now);
    expect(p.lineItems.map((l) => [l.id, l.totals])).toEqual([
      ['li_1', [{ type: 'subtotal', amount: 7000 }, { type: 'total', amount: 7000 }]],
      ['li_2', [{ type: 'subtotal', amount: 1500 }, { type: 'total', amount: 1500 }]],
    ]);
    expect(p.totals).toEqual([{ type: 'subtotal', amount: 8500 }, { type: 'total', amount: 8500 }]);
    expect(p.messages).toEqual([]);
  });

  it('applies percentage and fixed codes in order, as one negative discount entry', () => {
    const p = priceCart([{ itemId: 'rose', quantity: 2 }], ['10off', 'FIXED500'], catalog, now);
    expect(p.applied.map((d) => [d.code, d.amount, d.priority])).toEqual([['10OFF', 700, 1], ['FIXED500', 500, 2]]);
    expect(p.totals).toEqual([
      { type: 'subtotal', amount: 7000 },
      { type: 'discount', amount: -1200, display_text: '10% Off, $5 Off' },
      { type: 'total', amount: 5800 },
    ]);
    expect(totalsAddUp(p.totals)).toBe(true);
  });

  it('caps discounts at the subtotal and omits a zero discount entry', () => {
    const capped = priceCart([{ itemId: 'pot', quantity: 1 }], ['BIG', 'FIXED500'], catalog, now);
    expect(capped.total).toBe(0);
    expect(capped.applied.map((d) => d.amount)).toEqual([1500, 0]);
    expect(totalsAddUp(capped.totals)).toBe(true);
    const empty = priceCart([], ['10OFF'], catalog, now);
    expect(empty.totals).toEqual([{ type: 'subtotal', amount: 0 }, { type: 'total', amount: 0 }]);
  });

  it('reports expired, invalid and repeated codes as warnings with their path', () => {
    const p = priceCart([{ itemId: 'rose', quantity: 1 }], ['old', 'nope', '10OFF', '10off'], catalog, now);
    expect(p.messages.map((m) => [m.type, m.code, m.path])).toEqual([
      ['warning', 'discount_code_expired', '$.discounts.codes[0]'],
      ['warning', 'discount_code_invalid', '$.discounts.codes[1]'],
      ['warning', 'discount_code_already_applied', '$.discounts.codes[3]'],
    ]);
    expect(priceCart([{ itemId: 'rose', quantity: 1 }], ['OLD'], catalog, Date.parse('2019-01-01T00:00:00Z')).applied).toHaveLength(1);
  });

  it('flags unknown items (left out) and short stock as recoverable errors', () => {
    const p = priceCart([{ itemId: 'ghost', quantity: 1 }, { itemId: 'pot', quantity: 2 }], [], catalog, now);
    expect(p.lineItems.map((l) => l.item.id)).toEqual(['pot']);
    expect(p.messages.map((m) => [m.code, m.severity, m.path])).toEqual([
      ['item_unavailable', 'recoverable', '$.line_items[0]'],
      ['out_of_stock', 'recoverable', '$.line_items[1]'],
    ]);
  });
});

describe('totalsAddUp', () => {
  it('needs exactly one total equal to the sum of the rest', () => {
    expect(totalsAddUp([{ type: 'subtotal', amount: 10 }, { type: 'tax', amount: 2 }, { type: 'total', amount: 12 }])).toBe(true);
    expect(totalsAddUp([{ type: 'subtotal', amount: 10 }, { type: 'total', amount: 11 }])).toBe(false);
    expect(totalsAddUp([{ type: 'subtotal', amount: 10 }])).toBe(false);
  });
});
