import type { UcpCheckout } from '../domain/ucp-types';
import { discountOutcome } from './discount-outcome';

const checkout = (extra: Partial<UcpCheckout>): UcpCheckout => ({ id: 'c', status: 'ready_for_complete', currency: 'USD', totals: [], line_items: [], ...extra });

describe('discount outcome', () => {
  it('should split codes into applied (case-insensitive) and refused by the warning at their path', () => {
    const out = discountOutcome(
      ['10off', 'SPRING2020', 'NOPE'],
      checkout({
        discounts: { codes: ['10off', 'SPRING2020', 'NOPE'], applied: [{ code: '10OFF', amount: 700 }] },
        messages: [
          { type: 'warning', code: 'discount_code_expired', content: 'Code SPRING2020 has expired.', path: '$.discounts.codes[1]' },
          { type: 'warning', code: 'discount_code_invalid', content: 'Code NOPE is not valid.', path: '$.discounts.codes[2]' },
        ],
      }),
    );
    expect(out).toEqual({ applied: ['10off'], rejected: [{ code: 'SPRING2020', reason: 'discount_code_expired' }, { code: 'NOPE', reason: 'discount_code_invalid' }] });
  });

  it('should find the refused code by content when the warning has no path', () => {
    const out = discountOutcome(['A1', 'B2'], checkout({ discounts: { applied: [{ code: 'A1', amount: 1 }] }, messages: [{ type: 'warning', code: 'discount_code_invalid', content: 'B2 is unknown' }] }));
    expect(out).toEqual({ applied: ['A1'], rejected: [{ code: 'B2', reason: 'discount_code_invalid' }] });
  });

  it('should report a code neither applied nor warned about as not_applied, and ignore other messages', () => {
    const out = discountOutcome(['X'], checkout({ messages: [{ type: 'error', code: 'out_of_stock', content: 'X', severity: 'recoverable' }] }));
    expect(out).toEqual({ applied: [], rejected: [{ code: 'X', reason: 'not_applied' }] });
  });

  it('should answer nothing for no codes', () => {
    expect(discountOutcome([], checkout({}))).toEqual({ applied: [], rejected: [] });
  });
});
