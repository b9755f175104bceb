import { toBase64 } from '@exchange/crypto';
import { DomainError } from '@exchange/platform';
import { DEFAULT_AUTONOMY, idempotencyKey, validateAutonomy, validateCreateMandate, type CreateMandateInput } from './mandate-input';

const NOW = new Date('2026-06-01T12:00:00.000Z');

function input(over: Partial<CreateMandateInput> = {}): CreateMandateInput {
  return {
    signerAgentId: 'agt_signer',
    agentId: 'agt_buyer',
    scopeMerchants: ['shop.example'],
    scopeCategories: ['books'],
    scopeSkus: [],
    perTransaction: '25.50',
    totalLimit: '100',
    currency: 'USD',
    expiresAt: new Date('2026-07-01T00:00:00.000Z'),
    signature: toBase64(new Uint8Array(64).fill(7)),
    autonomy: undefined,
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
const codeOf = (over: Partial<CreateMandateInput>) => failure(() => validateCreateMandate(input(over), NOW)).code;

describe('validateCreateMandate', () => {
  it('should parse amounts to micro-units, default the autonomy and keep the amounts as sent in the signed payload', () => {
    const draft = validateCreateMandate(input(), NOW);
    expect(draft.limits).toEqual({ perTransaction: 25_500_000n, total: 100_000_000n, currency: 'USD' });
    expect(draft.autonomy).toEqual(DEFAULT_AUTONOMY);
    expect(draft.autonomy).toEqual({ mode: 'autonomous', stepUpThreshold: null, approvalForNewMerchants: false, dailyLimit: null });
    expect(draft.signedPayload.limits).toEqual({ per_transaction: '25.50', total: '100', currency: 'USD' });
    expect(draft.signedPayload.expires_at).toBe('2026-07-01T00:00:00.000Z');
  });

  it('should require both agent ids', () => {
    expect(codeOf({ signerAgentId: '' })).toBe('validation_failed');
    expect(codeOf({ agentId: '' })).toBe('validation_failed');
    expect(codeOf({ agentId: 'a'.repeat(129) })).toBe('validation_failed');
    expect(codeOf({ agentId: 'has space' })).toBe('validation_failed');
  });

  it('should refuse amounts that are not positive decimals', () => {
    for (const bad of ['0', '-1', '1.1234567', 'abc', '', '1e3']) expect(codeOf({ perTransaction: bad })).toBe('invalid_amount');
    expect(codeOf({ totalLimit: '0' })).toBe('invalid_amount');
  });

  it('should refuse a total below the per-transaction limit and accept an equal one', () => {
    expect(codeOf({ totalLimit: '25.49' })).toBe('validation_failed');
    expect(validateCreateMandate(input({ totalLimit: '25.5' }), NOW).limits.total).toBe(25_500_000n);
  });

  it('should refuse an unsupported currency', () => {
    expect(codeOf({ currency: 'XXZ' })).toBe('unsupported_currency');
    expect(codeOf({ currency: '' })).toBe('unsupported_currency');
    expect(validateCreateMandate(input({ currency: 'CREDIT' }), NOW).limits.currency).toBe('CREDIT');
  });

  it('should need expires_at in the future', () => {
    expect(codeOf({ expiresAt: undefined })).toBe('validation_failed');
    expect(codeOf({ expiresAt: NOW })).toBe('validation_failed');
    expect(codeOf({ expiresAt: new Date(Date.UTC(10000, 0, 1)) })).toBe('validation_failed');
    expect(codeOf({ expiresAt: new Date(NaN) })).toBe('validation_failed');
    expect(validateCreateMandate(input({ expiresAt: new Date(NOW.getTime() + 1) }), NOW).expiresAt.getTime()).toBe(NOW.getTime() + 1);
  });

  it('should bound the scope lists: at most 100 entries of 1-200 printable characters', () => {
    expect(validateCreateMandate(input({ scopeSkus: Array.from({ length: 100 }, (_, i) => `s${i}`) }), NOW).scope.skus).toHaveLength(100);
    expect(codeOf({ scopeSkus: Array.from({ length: 101 }, (_, i) => `s${i}`) })).toBe('validation_failed');
    expect(codeOf({ scopeCategories: [''] })).toBe('validation_failed');
    expect(codeOf({ scopeCategories: ['x'.repeat(201)] })).toBe('validation_failed');
    expect(validateCreateMandate(input({ scopeCategories: ['é'.repeat(200)] }), NOW).scope.categories[0]).toHaveLength(200);
    expect(codeOf({ scopeSkus: ['a\u0000b'] })).toBe('validation_failed');
    expect(codeOf({ scopeSkus: ['a\nb'] })).toBe('validation_failed');
  });

  it('should want merchants as lower-case DNS names', () => {
    for (const bad of ['Shop.example', 'https://shop.example', 'shop.example:443', 'shop.example/x', '-a.example', 'a..b', 'a_b.example']) {
      expect(codeOf({ scopeMerchants: [bad] })).toBe('invalid_merchant_domain');
    }
    expect(validateCreateMandate(input({ scopeMerchants: ['sandbox-merchant.local', 'localhost'] }), NOW).scope.merchants).toEqual([
      'sandbox-merchant.local',
      'localhost',
    ]);
  });

  it('should require a signature shaped like base64 of 64 bytes', () => {
    expect(codeOf({ signature: '' })).toBe('validation_failed');
    expect(codeOf({ signature: 'A'.repeat(513) })).toBe('mandate_signature_invalid');
    expect(codeOf({ signature: 'c2ln' })).toBe('mandate_signature_invalid');
    expect(codeOf({ signature: '!!notbase64' })).toBe('mandate_signature_invalid');
    expect(codeOf({ signature: toBase64(new Uint8Array(64)).replace(/=+$/, '') })).toBe('mandate_signature_invalid');
  });

  it('should check the autonomy given against the mandate currency', () => {
    const draft = validateCreateMandate(
      input({ autonomy: { mode: 'step_up', stepUpThreshold: { amount: '20', currency: '' }, approvalForNewMerchants: true, dailyLimit: '50' } }),
      NOW,
    );
    expect(draft.autonomy).toEqual({ mode: 'step_up', stepUpThreshold: { amount: 20_000_000n, currency: 'USD' }, approvalForNewMerchants: true, dailyLimit: 50_000_000n });
  });
});

describe('validateAutonomy', () => {
  const base = { mode: 'autonomous' as const, stepUpThreshold: undefined, approvalForNewMerchants: false, dailyLimit: undefined };
  const code = (over: object) => failure(() => validateAutonomy({ ...base, ...over }, 'USD')).code;

  it('should need a mode', () => {
    expect(code({ mode: undefined })).toBe('validation_failed');
  });

  it('should need a threshold in step_up mode, in the mandate currency, positive', () => {
    expect(code({ mode: 'step_up' })).toBe('validation_failed');
    expect(code({ mode: 'step_up', stepUpThreshold: { amount: '5', currency: 'EUR' } })).toBe('validation_failed');
    expect(code({ mode: 'step_up', stepUpThreshold: { amount: '0', currency: 'USD' } })).toBe('invalid_amount');
    expect(validateAutonomy({ ...base, mode: 'step_up', stepUpThreshold: { amount: '5', currency: 'USD' } }, 'USD').stepUpThreshold).toEqual({
      amount: 5_000_000n,
      currency: 'USD',
    });
  });

  it('should keep a threshold in autonomous and manual modes (it only applies in step_up)', () => {
    expect(validateAutonomy({ ...base, mode: 'manual', stepUpThreshold: { amount: '5', currency: 'USD' } }, 'USD').stepUpThreshold?.amount).toBe(5_000_000n);
  });

  it('should want a positive daily limit', () => {
    expect(code({ dailyLimit: '0' })).toBe('invalid_amount');
    expect(code({ dailyLimit: 'x' })).toBe('invalid_amount');
    expect(validateAutonomy({ ...base, dailyLimit: '0.000001' }, 'USD').dailyLimit).toBe(1n);
  });
});

describe('idempotencyKey', () => {
  it('should accept none or 1-255 printable ASCII characters', () => {
    expect(idempotencyKey('')).toBeUndefined();
    expect(idempotencyKey(undefined)).toBeUndefined();
    expect(idempotencyKey('k-1')).toBe('k-1');
    expect(failure(() => idempotencyKey('x'.repeat(256))).code).toBe('invalid_idempotency_key');
    expect(failure(() => idempotencyKey('é')).code).toBe('invalid_idempotency_key');
  });
});
