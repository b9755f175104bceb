import { HttpProblem } from '../../plugins/app/problem';
import { deliveredUrl, rawHeaders, refusalStatus } from './webhook-delivery';

describe('rawHeaders', () => {
  it('should keep every header in order, repeats included, names lower-cased', () => {
    expect(rawHeaders(['Content-Digest', 'sha-256=:x:', 'Signature', 'sig1=:a:', 'X-Dup', '1', 'x-dup', '2'])).toEqual([
      { name: 'content-digest', value: 'sha-256=:x:' },
      { name: 'signature', value: 'sig1=:a:' },
      { name: 'x-dup', value: '1' },
      { name: 'x-dup', value: '2' },
    ]);
  });
});

describe('deliveredUrl', () => {
  const req = { protocol: 'http', host: 'gateway:8080', url: '/v1/commerce/ucp/webhooks/orders?x=1' };

  it('should rebuild the URL from PUBLIC_BASE_URL, keeping path and query', () => {
    expect(deliveredUrl(req, 'https://exchange.example/')).toBe('https://exchange.example/v1/commerce/ucp/webhooks/orders?x=1');
    expect(deliveredUrl(req, 'https://exchange.example/api')).toBe('https://exchange.example/api/v1/commerce/ucp/webhooks/orders?x=1');
  });

  it('should fall back to the scheme and Host of the request', () => {
    expect(deliveredUrl(req, undefined)).toBe('http://gateway:8080/v1/commerce/ucp/webhooks/orders?x=1');
    expect(deliveredUrl({ ...req, host: '[::1]:8080' }, undefined)).toBe('http://[::1]:8080/v1/commerce/ucp/webhooks/orders?x=1');
  });

  it('should refuse a missing or hostile Host', () => {
    for (const host of ['', 'evil.example/path', 'a b']) {
      expect(() => deliveredUrl({ ...req, host }, undefined)).toThrow(HttpProblem);
    }
  });
});

describe('refusalStatus', () => {
  it('should answer 400 for a malformed message and 401 for signer problems', () => {
    for (const reason of ['digest_mismatch', 'algorithm_unsupported', 'header_repeated', 'body_not_json', 'order_schema_invalid', 'webhook_id_missing']) {
      expect({ reason, status: refusalStatus(reason) }).toEqual({ reason, status: 400 });
    }
    expect(refusalStatus('signature_invalid')).toBe(401);
    expect(refusalStatus('key_not_found')).toBe(401);
    expect(refusalStatus('signature_missing')).toBe(401);
    expect(refusalStatus('timestamp_out_of_window')).toBe(401);
  });
});
