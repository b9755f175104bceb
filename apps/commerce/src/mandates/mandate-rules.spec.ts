import { DomainError } from '@exchange/platform';
import type { MandateRecord, SpendAttempt } from './mandate.model';
import { checkBeforeMerchant, checkSpend, effectiveStatus } from './mandate-rules';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const U = 1_000_000n; // one unit in micro-units

function mandate(over: Partial<MandateRecord> = {}): MandateRecord {
  return {
    mandateId: 'mdt_1',
    signerAgentId: 'agt_signer',
    agentId: 'agt_buyer',
    scope: { merchants: [], categories: [], skus: [] },
    limits: { perTransaction: 50n * U, total: 200n * U, currency: 'USD' },
    expiresAt: new Date('2026-07-01T00:00:00.000Z'),
    signature: 'sig',
    status: 'active',
    spent: 0n,
    reserved: 0n,
    autonomy: { mode: 'autonomous', stepUpThreshold: null, approvalForNewMerchants: false, dailyLimit: null },
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

function attempt(over: Partial<SpendAttempt> = {}): SpendAttempt {
  return {
    buyerAgentId: 'agt_buyer',
    merchantDomain: 'shop.example',
    currency: 'USD',
    total: 10n * U,
    lines: [{ sku: 'sku-1', category: 'books' }],
    now: NOW,
    knownMerchant: true,
    spentToday: 0n,
    ...over,
  };
}

function failure(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

const codeOf = (m: MandateRecord, a: SpendAttempt) => failure(() => checkSpend(m, a)).code;

describe('effectiveStatus', () => {
  it('should keep the stored status while unexpired and under the total', () => {
    expect(effectiveStatus(mandate(), NOW)).toBe('active');
    expect(effectiveStatus(mandate({ status: 'paused' }), NOW)).toBe('paused');
  });

  it('should be expired from expires_at on (equal included)', () => {
    expect(effectiveStatus(mandate({ expiresAt: NOW }), NOW)).toBe('expired');
    expect(effectiveStatus(mandate({ expiresAt: new Date(NOW.getTime() + 1) }), NOW)).toBe('active');
    expect(effectiveStatus(mandate({ status: 'paused', expiresAt: NOW }), NOW)).toBe('expired');
  });

  it('should be exhausted once spent reaches the total, even when also expired', () => {
    expect(effectiveStatus(mandate({ spent: 200n * U }), NOW)).toBe('exhausted');
    expect(effectiveStatus(mandate({ spent: 200n * U - 1n }), NOW)).toBe('active');
    expect(effectiveStatus(mandate({ spent: 200n * U, expiresAt: NOW }), NOW)).toBe('exhausted');
    expect(effectiveStatus(mandate({ status: 'exhausted' }), NOW)).toBe('exhausted');
  });

  it('should keep revoked whatever else holds', () => {
    expect(effectiveStatus(mandate({ status: 'revoked', spent: 200n * U, expiresAt: NOW }), NOW)).toBe('revoked');
  });
});

describe('checkSpend rules', () => {
  it('should pass a spend inside every limit with no approval', () => {
    expect(checkSpend(mandate(), attempt())).toBeNull();
  });

  it('should refuse another buyer', () => {
    expect(codeOf(mandate(), attempt({ buyerAgentId: 'agt_other' }))).toBe('mandate_not_for_agent');
  });

  it('should refuse a paused, revoked or exhausted mandate naming the status', () => {
    for (const [m, status] of [
      [mandate({ status: 'paused' }), 'paused'],
      [mandate({ status: 'revoked' }), 'revoked'],
      [mandate({ status: 'exhausted' }), 'exhausted'],
      [mandate({ spent: 200n * U }), 'exhausted'],
    ] as const) {
      const err = failure(() => checkSpend(m, attempt()));
      expect(err.code).toBe('mandate_inactive');
      expect(err.details).toMatchObject({ status });
    }
  });

  it('should refuse an expired mandate', () => {
    const err = failure(() => checkSpend(mandate({ expiresAt: NOW }), attempt()));
    expect(err.code).toBe('mandate_expired');
    expect(err.details).toMatchObject({ expires_at: NOW.toISOString() });
  });

  it('should refuse another currency', () => {
    expect(codeOf(mandate(), attempt({ currency: 'EUR' }))).toBe('mandate_currency_mismatch');
  });

  it('should allow only the listed merchants, case-insensitively', () => {
    const m = mandate({ scope: { merchants: ['shop.example'], categories: [], skus: [] } });
    expect(checkSpend(m, attempt({ merchantDomain: 'SHOP.Example' }))).toBeNull();
    expect(codeOf(m, attempt({ merchantDomain: 'other.example' }))).toBe('mandate_merchant_not_allowed');
  });

  it('should allow only the listed skus, on every line', () => {
    const m = mandate({ scope: { merchants: [], categories: [], skus: ['sku-1', 'sku-2'] } });
    expect(checkSpend(m, attempt({ lines: [{ sku: 'sku-1', category: null }, { sku: 'sku-2', category: null }] }))).toBeNull();
    const err = failure(() => checkSpend(m, attempt({ lines: [{ sku: 'sku-1', category: null }, { sku: 'sku-3', category: null }] })));
    expect(err.code).toBe('mandate_sku_not_allowed');
    expect(err.details).toMatchObject({ sku: 'sku-3' });
  });

  it('should allow only the listed categories and fail closed on a line without one', () => {
    const m = mandate({ scope: { merchants: [], categories: ['books'], skus: [] } });
    expect(checkSpend(m, attempt())).toBeNull();
    expect(codeOf(m, attempt({ lines: [{ sku: 'sku-1', category: 'toys' }] }))).toBe('mandate_category_not_allowed');
    expect(codeOf(m, attempt({ lines: [{ sku: 'sku-1', category: null }] }))).toBe('mandate_category_not_allowed');
  });

  it('should accept any line when the scope lists are empty', () => {
    expect(checkSpend(mandate(), attempt({ lines: [{ sku: 'anything', category: null }], merchantDomain: 'x.example' }))).toBeNull();
  });

  it('should allow a total equal to the per-transaction limit and refuse one micro-unit more', () => {
    expect(checkSpend(mandate(), attempt({ total: 50n * U }))).toBeNull();
    const err = failure(() => checkSpend(mandate(), attempt({ total: 50n * U + 1n })));
    expect(err.code).toBe('mandate_per_transaction_exceeded');
    expect(err.details).toEqual({ total: '50.000001', per_transaction: '50' });
  });

  it('should count spent and reserved against the total limit (equal passes)', () => {
    const m = mandate({ spent: 100n * U, reserved: 60n * U });
    expect(checkSpend(m, attempt({ total: 40n * U }))).toBeNull();
    const err = failure(() => checkSpend(m, attempt({ total: 40n * U + 1n })));
    expect(err.code).toBe('mandate_total_exceeded');
    expect(err.details).toEqual({ total: '40.000001', spent: '100', reserved: '60', total_limit: '200' });
  });

  it('should enforce the daily limit over today\'s spend (equal passes)', () => {
    const m = mandate({ autonomy: { mode: 'autonomous', stepUpThreshold: null, approvalForNewMerchants: false, dailyLimit: 30n * U } });
    expect(checkSpend(m, attempt({ spentToday: 20n * U, total: 10n * U }))).toBeNull();
    const err = failure(() => checkSpend(m, attempt({ spentToday: 20n * U, total: 10n * U + 1n })));
    expect(err.code).toBe('mandate_daily_limit_exceeded');
    expect(err.details).toEqual({ total: '10.000001', spent_today: '20', daily_limit: '30' });
  });

  it('should answer with 403 PERMISSION_DENIED', () => {
    expect(failure(() => checkSpend(mandate(), attempt({ currency: 'EUR' }))).grpcCode).toBe(7);
  });

  it('should report the first broken rule in the documented order', () => {
    const broken = mandate({
      status: 'paused',
      scope: { merchants: ['a.example'], categories: ['books'], skus: ['sku-9'] },
      limits: { perTransaction: 1n, total: 1n, currency: 'USD' },
    });
    const all = attempt({ currency: 'EUR', merchantDomain: 'b.example', total: 5n * U });
    expect(codeOf(broken, { ...all, buyerAgentId: 'x' })).toBe('mandate_not_for_agent');
    expect(codeOf(broken, all)).toBe('mandate_inactive');
    expect(codeOf({ ...broken, status: 'active', expiresAt: NOW }, all)).toBe('mandate_expired');
    const live = { ...broken, status: 'active' as const };
    expect(codeOf(live, all)).toBe('mandate_currency_mismatch');
    expect(codeOf(live, { ...all, currency: 'USD' })).toBe('mandate_merchant_not_allowed');
    expect(codeOf(live, { ...all, currency: 'USD', merchantDomain: 'a.example' })).toBe('mandate_sku_not_allowed');
    const inSku = { ...all, currency: 'USD', merchantDomain: 'a.example', lines: [{ sku: 'sku-9', category: 'toys' }] };
    expect(codeOf(live, inSku)).toBe('mandate_category_not_allowed');
    const inScope = { ...inSku, lines: [{ sku: 'sku-9', category: 'books' }] };
    expect(codeOf(live, inScope)).toBe('mandate_per_transaction_exceeded');
    expect(codeOf({ ...live, limits: { perTransaction: 10n * U, total: 1n, currency: 'USD' } }, inScope)).toBe('mandate_total_exceeded');
    const daily = { ...live, limits: { perTransaction: 10n * U, total: 10n * U, currency: 'USD' } };
    daily.autonomy = { ...daily.autonomy, dailyLimit: 1n };
    expect(codeOf(daily, inScope)).toBe('mandate_daily_limit_exceeded');
  });
});

describe('checkSpend approval', () => {
  const withAutonomy = (autonomy: Partial<MandateRecord['autonomy']>) =>
    mandate({ autonomy: { mode: 'autonomous', stepUpThreshold: null, approvalForNewMerchants: false, dailyLimit: null, ...autonomy } });
  const threshold = { amount: 20n * U, currency: 'USD' };

  it('should always ask in manual mode', () => {
    expect(checkSpend(withAutonomy({ mode: 'manual' }), attempt({ total: 1n }))).toBe('manual_mode');
  });

  it('should ask in step_up mode only above the threshold (equal passes)', () => {
    const m = withAutonomy({ mode: 'step_up', stepUpThreshold: threshold });
    expect(checkSpend(m, attempt({ total: 20n * U }))).toBeNull();
    expect(checkSpend(m, attempt({ total: 20n * U + 1n }))).toBe('step_up_threshold');
  });

  it('should ignore a threshold in another currency', () => {
    const m = withAutonomy({ mode: 'step_up', stepUpThreshold: { amount: 1n, currency: 'EUR' } });
    expect(checkSpend(m, attempt({ total: 40n * U }))).toBeNull();
  });

  it('should ignore the threshold in autonomous mode', () => {
    expect(checkSpend(withAutonomy({ stepUpThreshold: threshold }), attempt({ total: 40n * U }))).toBeNull();
  });

  it('should ask for a new merchant when so configured, in autonomous and step_up modes', () => {
    expect(checkSpend(withAutonomy({ approvalForNewMerchants: true }), attempt({ knownMerchant: false }))).toBe('new_merchant');
    expect(checkSpend(withAutonomy({ approvalForNewMerchants: true }), attempt({ knownMerchant: true }))).toBeNull();
    expect(checkSpend(withAutonomy({ approvalForNewMerchants: false }), attempt({ knownMerchant: false }))).toBeNull();
    const stepUp = withAutonomy({ mode: 'step_up', stepUpThreshold: threshold, approvalForNewMerchants: true });
    expect(checkSpend(stepUp, attempt({ knownMerchant: false }))).toBe('new_merchant');
    expect(checkSpend(stepUp, attempt({ knownMerchant: false, total: 30n * U }))).toBe('step_up_threshold');
  });

  it('should check the rules before asking for approval', () => {
    expect(codeOf(withAutonomy({ mode: 'manual' }), attempt({ currency: 'EUR' }))).toBe('mandate_currency_mismatch');
  });
});

describe('checkBeforeMerchant', () => {
  const standing = { buyerAgentId: 'agt_buyer', merchantDomain: 'shop.example', now: NOW };
  const before = (m: MandateRecord, a = standing) => {
    try {
      checkBeforeMerchant(m, a);
      return 'ok';
    } catch (err) {
      return (err as DomainError).code;
    }
  };

  it('runs the rules that need no merchant answer, in checkSpend order', () => {
    expect(before(mandate())).toBe('ok');
    expect(before(mandate(), { ...standing, buyerAgentId: 'agt_other' })).toBe('mandate_not_for_agent');
    expect(before(mandate({ status: 'paused' }))).toBe('mandate_inactive');
    expect(before(mandate({ expiresAt: NOW }))).toBe('mandate_expired');
    expect(before(mandate({ scope: { merchants: ['other.example'], categories: [], skus: [] } }))).toBe('mandate_merchant_not_allowed');
    expect(before(mandate({ scope: { merchants: ['SHOP.example'], categories: [], skus: [] } }))).toBe('ok');
  });

  it('leaves the amount, sku and category rules to checkSpend', () => {
    expect(before(mandate({ spent: 199n * U, scope: { merchants: [], categories: ['toys'], skus: ['x'] } }))).toBe('ok');
  });
});
