import { encodeCursor, isDomainError } from '@exchange/platform';
import { decodeSellerCursor, encodeSellerCursor } from './seller-cursor';

describe('fixture seller cursor', () => {
  it('should round-trip the rank key, seller ids with colons included', () => {
    const key = { passed: 12, lastPassedAt: new Date('2026-11-22T01:02:03.456Z'), sellerId: 'acme:agent:seller-1' };
    expect(decodeSellerCursor(encodeSellerCursor(key))).toEqual(key);
  });

  it('should refuse a cursor that is not a seller rank key with invalid_cursor', () => {
    const code = (cursor: string) => {
      try {
        decodeSellerCursor(cursor);
        return 'ok';
      } catch (err) {
        return isDomainError(err) ? err.code : 'other';
      }
    };
    const at = new Date('2026-11-22T00:00:00.000Z');
    expect(code(encodeCursor({ createdAt: at, id: 'csv-parser.golden' }))).toBe('invalid_cursor');
    expect(code(encodeCursor({ createdAt: at, id: '3:' }))).toBe('invalid_cursor');
    expect(code(encodeCursor({ createdAt: at, id: '03:x' }))).toBe('invalid_cursor');
    expect(code('not a cursor')).toBe('invalid_cursor');
  });
});
