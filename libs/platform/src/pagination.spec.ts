import { DomainError } from './errors';
import { decodeCursor, encodeCursor, PAGE_LIMIT_DEFAULT, resolveLimit, toPage, type CursorKey } from './pagination';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError ? err.code : 'not-a-domain-error';
  }
  return undefined;
}

describe('cursor', () => {
  const key: CursorKey = { createdAt: new Date('2026-11-21T18:00:00.123Z'), id: 'ctr_01a1ff5d-b26b-77b6-9a6e-02ad9d2235bc' };

  it('should round-trip the sort key', () => {
    const cursor = encodeCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(key);
  });

  it('should round-trip ids containing the separator and non-ASCII', () => {
    const odd = { createdAt: new Date(0), id: 'acme:agent:a|b|é' };
    expect(decodeCursor(encodeCursor(odd))).toEqual(odd);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc$'],
    ['standard base64 padding', encodeCursor(key) + '='],
    ['no separator', Buffer.from('2026-11-21T18:00:00.123Z').toString('base64url')],
    ['bad date', Buffer.from('yesterday|x').toString('base64url')],
    ['impossible date', Buffer.from('2026-02-30T00:00:00.000Z|x').toString('base64url')],
    ['date without millis', Buffer.from('2026-11-21T18:00:00Z|x').toString('base64url')],
    ['empty id', Buffer.from('2026-11-21T18:00:00.123Z|').toString('base64url')],
    ['garbage', 'Zm9v'],
    ['too long', 'A'.repeat(2000)],
  ])('should reject a %s cursor with invalid_cursor', (_label, cursor) => {
    expect(codeOf(() => decodeCursor(cursor))).toBe('invalid_cursor');
  });
});

describe('resolveLimit', () => {
  it.each([
    [undefined, PAGE_LIMIT_DEFAULT],
    [null, PAGE_LIMIT_DEFAULT],
    [0, PAGE_LIMIT_DEFAULT],
    [1, 1],
    [50, 50],
    [200, 200],
  ])('should resolve %p to %p', (input, expected) => {
    expect(resolveLimit(input)).toBe(expected);
  });

  it.each([201, -1, 1.5, Number.NaN, Infinity])('should reject %p with invalid_limit', (input) => {
    expect(codeOf(() => resolveLimit(input))).toBe('invalid_limit');
  });
});

describe('toPage', () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, createdAt: new Date(Date.UTC(2026, 0, 10 - i)) }));
  const keyOf = (r: { id: string; createdAt: Date }) => ({ id: r.id, createdAt: r.createdAt });

  it('should return no cursor when the extra row is absent', () => {
    expect(toPage(rows.slice(0, 3), 3, keyOf)).toEqual({ data: rows.slice(0, 3), nextCursor: null });
    expect(toPage([], 3, keyOf)).toEqual({ data: [], nextCursor: null });
  });

  it('should drop the extra row and point the cursor at the last returned row', () => {
    const page = toPage(rows.slice(0, 4), 3, keyOf);
    expect(page.data).toEqual(rows.slice(0, 3));
    expect(decodeCursor(page.nextCursor!)).toEqual(keyOf(rows[2]));
  });
});
