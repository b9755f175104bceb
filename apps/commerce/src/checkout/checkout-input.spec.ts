import { checkDiscountCodes, checkIdempotencyKey, checkMode, parseLineItems, parseOptionalObject, requireId } from './checkout-input';

const line = (id: string, quantity: number) => ({ item: { id }, quantity });

describe('checkout input', () => {
  it('should parse line items and keep the fields the client sent', () => {
    expect(parseLineItems(JSON.stringify([line('roses', 2), { ...line('pot', 1), id: 'x' }]))).toEqual([line('roses', 2), { item: { id: 'pot' }, quantity: 1, id: 'x' }]);
  });

  it.each([
    ['not json', '[{', 'line_items'],
    ['an object', '{}', 'line_items'],
    ['empty', '[]', 'line_items'],
    ['a bare string line', '["x"]', 'line_items[0]'],
    ['no item id', JSON.stringify([{ item: {}, quantity: 1 }]), 'line_items[0].item.id'],
    ['quantity 0', JSON.stringify([line('a', 0)]), 'line_items[0].quantity'],
    ['quantity above 10 000', JSON.stringify([line('a', 10_001)]), 'line_items[0].quantity'],
    ['a fractional quantity', JSON.stringify([line('a', 1.5)]), 'line_items[0].quantity'],
    ['101 lines', JSON.stringify(Array.from({ length: 101 }, () => line('a', 1))), 'line_items'],
  ])('should refuse line items that are %s with ucp_payload_invalid', (_name, text, path) => {
    expect(() => parseLineItems(text)).toThrow(expect.objectContaining({ code: 'ucp_payload_invalid', details: { errors: [expect.objectContaining({ path })] } }));
  });

  it('should accept exactly 100 lines and quantity 10 000', () => {
    expect(parseLineItems(JSON.stringify(Array.from({ length: 100 }, () => line('a', 10_000))))).toHaveLength(100);
  });

  it('should parse optional objects and refuse arrays and bad JSON', () => {
    expect(parseOptionalObject('buyer', undefined)).toBeNull();
    expect(parseOptionalObject('buyer', '{"email":"a@b.c"}')).toEqual({ email: 'a@b.c' });
    expect(() => parseOptionalObject('buyer', '[]')).toThrow(expect.objectContaining({ code: 'ucp_payload_invalid' }));
    expect(() => parseOptionalObject('context', '{')).toThrow(expect.objectContaining({ code: 'ucp_payload_invalid' }));
  });

  it('should bound discount codes: 20 of 1..64 printable characters', () => {
    expect(checkDiscountCodes(['10OFF', 'x'.repeat(64)])).toEqual(['10OFF', 'x'.repeat(64)]);
    expect(() => checkDiscountCodes(Array.from({ length: 21 }, (_, i) => `C${i}`))).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    for (const bad of ['', 'x'.repeat(65), 'HAS SPACE', 'tab\t', 'é']) {
      expect(() => checkDiscountCodes([bad])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });

  it('should default the mode to live', () => {
    expect(checkMode(undefined)).toBe('live');
    expect(checkMode('shadow')).toBe('shadow');
  });

  it('should check idempotency keys and ids', () => {
    expect(checkIdempotencyKey('')).toBeUndefined();
    expect(checkIdempotencyKey('k-1')).toBe('k-1');
    expect(() => checkIdempotencyKey('x'.repeat(256))).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key' }));
    expect(() => checkIdempotencyKey('a\nb')).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key' }));
    expect(requireId('mandate_id', 'mdt_1')).toBe('mdt_1');
    expect(() => requireId('mandate_id', '')).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'mandate_id' } }));
  });
});
