import { CREDIT, parseCurrency } from './currency';

describe('parseCurrency', () => {
  it('should default an empty currency to CREDIT', () => {
    expect(parseCurrency('')).toBe(CREDIT);
    expect(parseCurrency(undefined)).toBe(CREDIT);
  });

  it.each(['CREDIT', 'EUR', 'USD', 'JPY'])('should accept %s', (c) => {
    expect(parseCurrency(c)).toBe(c);
  });

  // QQQ/ZZZ have the shape of a code but are not in ISO 4217 (issue 13): the shape alone is not enough.
  it.each(['eur', 'EURO', 'EU', 'credit', 'E1R', ' USD', 'QQQ', 'ZZZ', 'XXX'])('should refuse %j as unsupported_currency', (c) => {
    expect(() => parseCurrency(c)).toThrow(expect.objectContaining({ code: 'unsupported_currency' }));
  });
});
