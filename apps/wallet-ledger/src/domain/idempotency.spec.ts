import { optionalIdempotencyKey, requestFingerprint, requireIdempotencyKey } from './idempotency';

describe('idempotency keys', () => {
  it('should require a key', () => {
    expect(() => requireIdempotencyKey('')).toThrow(expect.objectContaining({ code: 'idempotency_key_required' }));
    expect(() => requireIdempotencyKey(undefined)).toThrow(expect.objectContaining({ code: 'idempotency_key_required' }));
  });

  it.each(['k', 'order-42/retry 1', '~'.repeat(255)])('should accept %j', (key) => {
    expect(requireIdempotencyKey(key)).toBe(key);
  });

  it.each(['x'.repeat(256), 'tab\there', 'new\nline', 'caf\u00e9'])('should refuse %j as invalid_idempotency_key', (key) => {
    expect(() => requireIdempotencyKey(key)).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key' }));
  });

  it('should treat an absent optional key as none and validate a present one', () => {
    expect(optionalIdempotencyKey('')).toBeUndefined();
    expect(optionalIdempotencyKey('a')).toBe('a');
    expect(() => optionalIdempotencyKey('\u0000')).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key' }));
  });
});

describe('requestFingerprint', () => {
  const req = { agentId: 'a:agent:b', toAgentId: 'c:agent:d', amount: '1.5', currency: 'CREDIT', idempotencyKey: 'k1' };

  it('should be stable across key order and ignore the idempotency key', () => {
    const reordered = { idempotencyKey: 'other', currency: 'CREDIT', amount: '1.5', toAgentId: 'c:agent:d', agentId: 'a:agent:b' };
    expect(requestFingerprint('transfer', reordered)).toBe(requestFingerprint('transfer', req));
    expect(requestFingerprint('transfer', req)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should change with any field and with the operation', () => {
    const base = requestFingerprint('transfer', req);
    expect(requestFingerprint('transfer', { ...req, amount: '1.50001' })).not.toBe(base);
    expect(requestFingerprint('transfer', { ...req, memo: 'x' })).not.toBe(base);
    expect(requestFingerprint('faucet', req)).not.toBe(base);
  });
});
