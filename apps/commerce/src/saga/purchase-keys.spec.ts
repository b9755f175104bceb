import { merchantKey, walletKey } from './purchase-keys';

describe('purchase idempotency keys', () => {
  it('wallet keys name the session, the attempt (deal) and the step', () => {
    expect(walletKey('cs_1', 'deal_9', 'hold')).toBe('commerce:cs_1:deal_9:hold');
    expect(walletKey('cs_1', 'deal_9', 'settle')).toBe('commerce:cs_1:deal_9:settle');
    expect(walletKey('cs_1', 'deal_9', 'release')).toBe('commerce:cs_1:deal_9:release');
  });

  it('merchant keys are UUIDs, the same for the same step of the same attempt', () => {
    const key = merchantKey('cs_1', 'deal_9', 'complete');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(merchantKey('cs_1', 'deal_9', 'complete')).toBe(key);
  });

  it('another step, attempt or session gets another merchant key', () => {
    const key = merchantKey('cs_1', 'deal_9', 'complete');
    expect(new Set([key, merchantKey('cs_1', 'deal_9', 'cancel'), merchantKey('cs_1', 'deal_10', 'complete'), merchantKey('cs_2', 'deal_9', 'complete')]).size).toBe(4);
  });
});
