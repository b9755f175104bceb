import { currencyExponent, microToMinor, minorToMicro } from './minor-units';

describe('minor units ⇄ micro-units', () => {
  it('uses the ISO 4217 exponent', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('BHD')).toBe(3);
    expect(currencyExponent('CREDIT')).toBeUndefined();
    expect(currencyExponent('usd')).toBeUndefined();
    expect(currencyExponent('XXX')).toBeUndefined();
  });

  it('converts both ways exactly', () => {
    expect(minorToMicro(2500, 'USD')).toBe(25_000_000n);
    expect(minorToMicro(-500, 'USD')).toBe(-5_000_000n);
    expect(minorToMicro(1200, 'JPY')).toBe(1_200_000_000n);
    expect(microToMinor(25_000_000n, 'USD')).toBe(2500n);
    expect(microToMinor(25_000_001n, 'USD')).toBeUndefined();
  });

  it('refuses CREDIT and fractional amounts', () => {
    expect(() => minorToMicro(1, 'CREDIT')).toThrow(expect.objectContaining({ code: 'unsupported_currency' }));
    expect(() => minorToMicro(1.5, 'USD')).toThrow(expect.objectContaining({ code: 'invalid_amount' }));
  });
});
