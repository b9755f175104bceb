import { accountId } from './accounts';
import { isMerchantDomain, merchantDomainOf, merchantOwner, parseMerchantDomain, payeeAccount } from './merchant';

describe('merchant domains and owners', () => {
  it.each(['sandbox-merchant.local', 'shop.example.com', 'localhost', 'a', 'x1.y-2.z3', `${'a'.repeat(63)}.com`, [...Array(4)].map(() => 'a'.repeat(62)).join('.')])(
    'should accept the domain %s',
    (domain) => {
      expect(isMerchantDomain(domain)).toBe(true);
      expect(parseMerchantDomain(domain, 'payee_merchant_domain')).toBe(domain);
    },
  );

  it.each([
    '',
    'Shop.example.com',
    'shop.example.com:8443',
    'https://shop.example.com',
    'shop.example.com/path',
    'shop..example.com',
    '.shop.example.com',
    'shop.example.com.',
    '-shop.example.com',
    'shop-.example.com',
    'sh op.example.com',
    'shop_1.example.com',
    'bücher.de',
    `${'a'.repeat(64)}.com`,
    [...Array(5)].map(() => 'a'.repeat(50)).join('.') + 'x'.repeat(3),
    'shop.example.com\u0000',
  ])('should refuse the domain %j with validation_failed naming the field', (domain) => {
    expect(isMerchantDomain(domain)).toBe(false);
    expect(() => parseMerchantDomain(domain, 'payee_merchant_domain')).toThrow(
      expect.objectContaining({ grpcCode: 3, code: 'validation_failed', details: { field: 'payee_merchant_domain' } }),
    );
  });

  it('should tell a merchant owner from an agent id', () => {
    expect(merchantOwner('shop.example.com')).toBe('merchant:shop.example.com');
    expect(merchantDomainOf('merchant:shop.example.com')).toBe('shop.example.com');
    expect(merchantDomainOf('acme:agent:bob')).toBeNull();
    // An agent of namespace "merchant" stays an agent: a domain has no ":".
    expect(merchantDomainOf('merchant:agent:bob')).toBeNull();
    expect(merchantDomainOf('merchant:')).toBeNull();
  });

  it('should pay a merchant its settlement account and an agent its available balance', () => {
    expect(accountId(payeeAccount('merchant:shop.example.com', 'CREDIT'))).toBe('merchant:shop.example.com/CREDIT/merchant_settlement');
    expect(payeeAccount('merchant:shop.example.com', 'EUR')).toEqual({ owner: 'merchant:shop.example.com', currency: 'EUR', kind: 'merchant_settlement' });
    expect(payeeAccount('merchant:agent:bob', 'CREDIT')).toEqual({ owner: 'merchant:agent:bob', currency: 'CREDIT', kind: 'available' });
    expect(payeeAccount('acme:agent:bob', 'CREDIT')).toEqual({ owner: 'acme:agent:bob', currency: 'CREDIT', kind: 'available' });
  });
});
