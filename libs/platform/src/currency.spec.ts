import { CREDIT, ISO_4217_CODES, ISO_4217_PUBLISHED, isSupportedCurrency } from './currency';

describe('isSupportedCurrency', () => {
  it.each([CREDIT, 'USD', 'EUR', 'JPY', 'CHF', 'GBP', 'XAU'])('should accept %s', (code) => {
    expect(isSupportedCurrency(code)).toBe(true);
  });

  // QQQ and ZZZ have the shape of a code but are not in ISO 4217; XXX/XTS are codes that are not money.
  it.each(['QQQ', 'ZZZ', 'ABC', 'XXX', 'XTS', 'usd', 'Usd', 'US', 'USDT', 'credit', ' USD', 'USD ', '', 'E1R'])('should refuse %j', (code) => {
    expect(isSupportedCurrency(code)).toBe(false);
  });

  it('should refuse non-strings reaching it from untyped input', () => {
    for (const value of [undefined, 840, null]) expect(isSupportedCurrency(value as unknown as string)).toBe(false);
  });

  it('should list sorted three-letter codes from a dated ISO 4217 list', () => {
    expect(ISO_4217_CODES.length).toBeGreaterThan(150);
    expect(ISO_4217_CODES.every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
    expect([...ISO_4217_CODES].sort()).toEqual(ISO_4217_CODES);
    expect(ISO_4217_PUBLISHED).toMatch(/^\d{4}-\d\d-\d\d$/);
  });
});
