import { ConfigError } from '@exchange/platform';
import { merchantDomainOfProfileUrl, parseMerchantDirectory, profileBaseUrl, restEndpoint } from './ucp-directory';

describe('MERCHANT_DIRECTORY', () => {
  it('maps domains to base URLs without trailing slash', () => {
    const dir = parseMerchantDirectory('{"sandbox-merchant.local":"http://127.0.0.1:8290/","shop.example":"https://10.0.0.5/ucp/"}');
    expect([...dir]).toEqual([
      ['sandbox-merchant.local', 'http://127.0.0.1:8290'],
      ['shop.example', 'https://10.0.0.5/ucp'],
    ]);
    expect(parseMerchantDirectory('{}').size).toBe(0);
  });

  it.each([
    ['not json', /not JSON/],
    ['[]', /JSON object/],
    ['{"Shop.Example":"http://x"}', /merchant domain/],
    ['{"127.0.0.1":"http://x"}', /merchant domain/],
    ['{"shop.example":5}', /URL string/],
    ['{"shop.example":"nope"}', /not a URL/],
    ['{"shop.example":"ftp://x"}', /http\(s\)/],
    ['{"shop.example":"http://x/?q=1"}', /query/],
    ['{"shop.example":"http://u:p@x"}', /credentials/],
  ])('refuses %s naming the variable', (json, pattern) => {
    let caught: unknown;
    try {
      parseMerchantDirectory(json);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe('MERCHANT_DIRECTORY');
    expect((caught as Error).message).toMatch(pattern);
  });

  const dir = parseMerchantDirectory('{"sandbox-merchant.local":"http://127.0.0.1:8290"}');

  it('reads an unmapped merchant over https at its domain, a mapped one at its base URL', () => {
    expect(profileBaseUrl('shop.example', dir)).toBe('https://shop.example');
    expect(profileBaseUrl('sandbox-merchant.local', dir)).toBe('http://127.0.0.1:8290');
  });

  it('rebases a mapped merchant’s advertised endpoint onto the directory origin, keeping its path', () => {
    expect(restEndpoint('http://merchant.test:9999/ucp', 'sandbox-merchant.local', dir)).toBe('http://127.0.0.1:8290/ucp');
    expect(restEndpoint('https://sandbox-merchant.local', 'sandbox-merchant.local', dir)).toBe('http://127.0.0.1:8290');
    expect(restEndpoint('http://127.0.0.1:8290/x', 'sandbox-merchant.local', dir)).toBe('http://127.0.0.1:8290/x');
    expect(restEndpoint('https://api.shop.example/ucp', 'shop.example', dir)).toBe('https://api.shop.example/ucp');
  });

  it('finds the merchant of a profile URL (webhook UCP-Agent)', () => {
    expect(merchantDomainOfProfileUrl('http://127.0.0.1:8290/.well-known/ucp', dir)).toBe('sandbox-merchant.local');
    expect(merchantDomainOfProfileUrl('https://shop.example/.well-known/ucp', dir)).toBe('shop.example');
    expect(merchantDomainOfProfileUrl('https://sandbox-merchant.local/.well-known/ucp', dir)).toBe('sandbox-merchant.local');
    for (const url of [
      'http://shop.example/.well-known/ucp',
      'https://shop.example/profile.json',
      'https://shop.example:8443/.well-known/ucp',
      'https://shop.example/.well-known/ucp?x=1',
      'https://127.0.0.1/.well-known/ucp',
      'http://127.0.0.1:8291/.well-known/ucp',
      'not a url',
    ]) {
      expect(merchantDomainOfProfileUrl(url, dir)).toBeUndefined();
    }
  });
});
