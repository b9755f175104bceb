import * as v from './validation';
import { refs } from './validation';

describe('validation', () => {
  it('should count characters, not bytes, for text limits', () => {
    expect(v.text('title', 'é'.repeat(200), 1, 200)).toHaveLength(200);
    expect(() => v.text('title', '', 1, 200)).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'title' } }));
    expect(() => v.text('title', 'x'.repeat(201), 1, 200)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
  it('should deduplicate tags keeping their order and refuse bad ones', () => {
    expect(v.tags(['b', 'a', 'b', 'c.d-e_f'])).toEqual(['b', 'a', 'c.d-e_f']);
    expect(() => v.tags(['Upper'])).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'tags' } }));
    expect(() => v.tags(['-x'])).toThrow();
    expect(() => v.tags(Array.from({ length: 21 }, (_, i) => `t${i}`))).toThrow();
  });
  it('should accept ISO 8601 durations and refuse the rest with invalid_turnaround', () => {
    for (const ok of ['PT24H', 'P1D', 'P1Y2M3W4DT5H6M7S', 'PT1S']) expect(v.isIsoDuration(ok)).toBe(true);
    for (const bad of ['P', 'PT', '24h', 'P1H', 'PT1D', '']) expect(v.isIsoDuration(bad)).toBe(false);
    expect(() => v.turnaround('1 day')).toThrow(expect.objectContaining({ code: 'invalid_turnaround' }));
  });
  it('should require deadlines and etas strictly in the future', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(() => v.futureDeadline(now, now)).toThrow(expect.objectContaining({ code: 'invalid_deadline' }));
    expect(v.futureDeadline(new Date(now.getTime() + 1), now)).toEqual(new Date(now.getTime() + 1));
    expect(() => v.futureEta(undefined, now)).toThrow(expect.objectContaining({ code: 'invalid_eta' }));
  });
  it('should refuse an eta after the contract deadline with invalid_eta naming the deadline', () => {
    const deadline = new Date('2026-01-02T00:00:00.000Z');
    expect(v.etaWithinDeadline(deadline, deadline)).toEqual(deadline);
    expect(v.etaWithinDeadline(new Date(deadline.getTime() - 1), deadline)).toEqual(new Date(deadline.getTime() - 1));
    expect(() => v.etaWithinDeadline(new Date(deadline.getTime() + 1), deadline)).toThrow(
      expect.objectContaining({ code: 'invalid_eta', grpcCode: 3, details: { deadline: '2026-01-02T00:00:00.000Z' } }),
    );
  });
  it('should parse money as micro-units and refuse non-positive amounts', () => {
    expect(v.money('budget', { amount: '12.5', currency: 'CREDIT' })).toEqual({ amount: 12_500_000n, currency: 'CREDIT' });
    expect(() => v.money('budget', { amount: '0', currency: 'CREDIT' })).toThrow(expect.objectContaining({ code: 'invalid_amount' }));
    expect(() => v.money('budget', undefined)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
  it('should take CREDIT and ISO 4217 codes only: QQQ has the shape but is no currency (issue 13)', () => {
    expect(v.money('price', { amount: '1', currency: 'EUR' })).toEqual({ amount: 1_000_000n, currency: 'EUR' });
    for (const currency of ['QQQ', 'XXX', 'usd', 'EURO', '']) {
      expect(() => v.money('price', { amount: '1', currency })).toThrow(expect.objectContaining({ code: 'unsupported_currency', details: { field: 'price' } }));
    }
  });
  it('should check artifact refs, payload JSON and its size', () => {
    expect(v.artifactRefs([`sha256:${'a'.repeat(64)}`])).toHaveLength(1);
    expect(() => v.artifactRefs(['sha256:xyz'])).toThrow(expect.objectContaining({ details: { field: 'artifact_refs' } }));
    expect(v.payloadJson('{"a":1}')).toBe('{"a":1}');
    expect(() => v.payloadJson('{nope')).toThrow(expect.objectContaining({ details: { field: 'payload' } }));
    expect(() => v.payloadJson(JSON.stringify('x'.repeat(256 * 1024)))).toThrow(expect.objectContaining({ details: { field: 'payload' } }));
  });
  it('should require seller_share_bps 1-9999 for a split and refuse it otherwise', () => {
    expect(v.sellerShareBps('split', 3000)).toBe(3000);
    expect(() => v.sellerShareBps('split', undefined)).toThrow(expect.objectContaining({ code: 'invalid_seller_share' }));
    expect(() => v.sellerShareBps('split', 10000)).toThrow(expect.objectContaining({ code: 'invalid_seller_share' }));
    expect(() => v.sellerShareBps('buyer', 5000)).toThrow(expect.objectContaining({ code: 'invalid_seller_share' }));
    expect(v.sellerShareBps('seller', undefined)).toBeNull();
  });
  it('should accept 1-255 printable idempotency keys', () => {
    expect(v.idempotencyKey('')).toBeUndefined();
    expect(v.idempotencyKey('k-1')).toBe('k-1');
    expect(() => v.idempotencyKey('x'.repeat(256))).toThrow(expect.objectContaining({ code: 'invalid_idempotency_key' }));
    expect(() => v.idempotencyKey('tab\t')).toThrow();
  });
});

describe('refs', () => {
  it('should take 0-100 strings of at most 500 characters', () => {
    expect(refs('evidence_refs', ['', 'x'.repeat(500)], 100, 500)).toEqual(['', 'x'.repeat(500)]);
    expect(() => refs('evidence_refs', ['x'.repeat(501)], 100, 500)).toThrow(expect.objectContaining({ details: { field: 'evidence_refs' } }));
    expect(() => refs('evidence_refs', Array.from({ length: 101 }, () => 'e'), 100, 500)).toThrow();
  });
});
