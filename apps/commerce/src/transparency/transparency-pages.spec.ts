import { agentCurrencyAfter, agentCurrencyCursor, pageAfter, shadowCursor } from './transparency-pages';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'no error';
};

describe('transparency pages', () => {
  const items = [
    { commerceSessionId: 'cs_a', createdAt: new Date('2026-11-01T00:00:00Z') },
    { commerceSessionId: 'cs_b', createdAt: new Date('2026-11-01T00:00:00Z') },
    { commerceSessionId: 'cs_c', createdAt: new Date('2026-11-02T00:00:00Z') },
  ];

  it('should walk a list page by page, ties by id', () => {
    const first = pageAfter(items, (i) => i, { limit: 2 });
    expect(first.items.map((i) => i.commerceSessionId)).toEqual(['cs_a', 'cs_b']);
    const second = pageAfter(items, (i) => i, { limit: 2, cursor: first.nextCursor });
    expect(second).toEqual({ items: [items[2]], nextCursor: '' });
    expect(pageAfter(items, (i) => i, { cursor: shadowCursor(items[0]) }).items.map((i) => i.commerceSessionId)).toEqual(['cs_b', 'cs_c']);
  });

  it('should round-trip an agent cursor and refuse foreign ones', () => {
    expect(agentCurrencyAfter(agentCurrencyCursor({ agentId: 'acme:agent:bob', currency: 'USD' }))).toEqual({ agentId: 'acme:agent:bob', currency: 'USD' });
    expect(agentCurrencyAfter(undefined)).toBeNull();
    expect(code(() => agentCurrencyAfter('garbage!'))).toBe('invalid_cursor');
    expect(code(() => agentCurrencyAfter(shadowCursor(items[0])))).toBe('invalid_cursor');
    expect(code(() => pageAfter(items, (i) => i, { cursor: agentCurrencyCursor({ agentId: 'x', currency: 'USD' }) }))).toBe('invalid_cursor');
    expect(code(() => pageAfter(items, (i) => i, { limit: 201 }))).toBe('invalid_limit');
  });
});
