import { checkBoostQuery, checkSignal, recorderOf } from './signal-rules';

const NOW = new Date('2026-10-21T00:00:00.000Z');
const CTR = 'ctr_0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const SELLER = 'acme:agent:seller';

function thrown(fn: () => unknown): { code: string; details: unknown } {
  try {
    fn();
  } catch (err) {
    return { code: (err as { code: string }).code, details: (err as { details: unknown }).details };
  }
  throw new Error('did not throw');
}

describe('matching signal rules', () => {
  it('should take an agent or the operator as the recorder, nobody else', () => {
    expect(recorderOf({ agentId: 'acme:agent:bob', operator: false })).toBe('acme:agent:bob');
    expect(recorderOf({ agentId: '', operator: true })).toBe('');
    expect(recorderOf({ agentId: 'acme:agent:bob', operator: true })).toBe('acme:agent:bob');
    expect(thrown(() => recorderOf(undefined)).code).toBe('forbidden');
  });

  it('should default occurred_at to now and keep the optional fields', () => {
    expect(checkSignal({ signal: 'click', contractId: CTR, sellerId: SELLER, requestId: 'req-1' }, '', NOW)).toEqual({
      signal: 'click', recordedBy: '', contractId: CTR, sellerId: SELLER, listingId: null, requestId: 'req-1', occurredAt: NOW,
    });
  });

  it('should refuse a missing signal and malformed ids naming the field', () => {
    expect(thrown(() => checkSignal({ signal: undefined, contractId: CTR, sellerId: SELLER }, '', NOW)).details).toEqual({ field: 'signal' });
    expect(thrown(() => checkSignal({ signal: 'click', contractId: 'ctr_1', sellerId: SELLER }, '', NOW)).details).toEqual({ field: 'contract_id' });
    expect(thrown(() => checkSignal({ signal: 'click', contractId: CTR, sellerId: 'seller' }, '', NOW)).details).toEqual({ field: 'seller_id' });
  });

  it('should refuse a future or over-30-days occurred_at with invalid_signal_time', () => {
    const at = (ms: number) => checkSignal({ signal: 'award', contractId: CTR, sellerId: SELLER, occurredAt: new Date(NOW.getTime() + ms) }, '', NOW);
    expect(thrown(() => at(1)).code).toBe('invalid_signal_time');
    expect(thrown(() => at(-30 * 86_400_000 - 1)).code).toBe('invalid_signal_time');
    expect(at(-30 * 86_400_000).occurredAt).toEqual(new Date('2026-09-21T00:00:00.000Z'));
  });

  it('should take exactly one boost shape, at most 200 candidates', () => {
    expect(checkBoostQuery({ contractId: CTR, sellerIds: [SELLER, SELLER], contractIds: [] })).toEqual({ kind: 'sellers', contractId: CTR, candidates: [SELLER] });
    expect(checkBoostQuery({ sellerId: SELLER, sellerIds: [], contractIds: [CTR] })).toEqual({ kind: 'contracts', sellerId: SELLER, candidates: [CTR] });
    expect(thrown(() => checkBoostQuery({ sellerIds: [], contractIds: [] })).code).toBe('validation_failed');
    expect(thrown(() => checkBoostQuery({ contractId: CTR, sellerId: SELLER, sellerIds: [], contractIds: [] })).code).toBe('validation_failed');
    const many = Array.from({ length: 201 }, (_, i) => `acme:agent:s${i}`);
    expect(thrown(() => checkBoostQuery({ contractId: CTR, sellerIds: many, contractIds: [] })).details).toEqual({ field: 'seller_ids' });
    expect(checkBoostQuery({ contractId: CTR, sellerIds: many.slice(0, 200), contractIds: [] }).candidates).toHaveLength(200);
  });
});
