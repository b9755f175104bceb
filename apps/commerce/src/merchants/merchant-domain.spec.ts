import { assertMerchantDomain, isMerchantDomain } from './merchant-domain';

describe('merchant domain', () => {
  it.each(['sandbox-merchant.local', 'shop.example.com', 'a.b', 'x1.example', `${'a'.repeat(63)}.com`])('accepts %s', (d) => {
    expect(isMerchantDomain(d)).toBe(true);
  });

  it.each([
    '',
    'localhost',
    'Shop.example.com',
    'https://shop.example.com',
    'shop.example.com:443',
    'shop.example.com/path',
    'shop..example',
    '-shop.example',
    'shop-.example',
    '.example.com',
    'example.com.',
    '127.0.0.1',
    'shop.example.com\n',
    'shop_example.com',
    'shöp.example',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
  ])('refuses %j', (d) => {
    expect(isMerchantDomain(d)).toBe(false);
  });

  it('throws 400 invalid_merchant_domain naming the value', () => {
    expect(assertMerchantDomain('shop.example')).toBe('shop.example');
    expect(() => assertMerchantDomain('http://x')).toThrow(expect.objectContaining({ code: 'invalid_merchant_domain', details: { merchant_domain: 'http://x' } }));
  });
});
