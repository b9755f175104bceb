import { ledgerVerdict } from './ledger';

const report = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ ok: true, accounts_checked: 12, entries_checked: 40, postings_checked: 86, global_sums: { CREDIT: '0' }, discrepancies: [], checked_at: 'x', ...over });

describe('ledgerVerdict', () => {
  it('is consistent when ok, no discrepancy and every sum zero', () => {
    expect(ledgerVerdict(200, report())).toEqual({ consistent: true, summary: 'ledger consistent (12 accounts, 40 entries, sums {"CREDIT":"0"})' });
  });

  it('does not take ok on trust', () => {
    expect(ledgerVerdict(200, report({ global_sums: { CREDIT: '0.5' } })).consistent).toBe(false);
    const v = ledgerVerdict(200, report({ discrepancies: [{ kind: 'balance_mismatch' }] }));
    expect(v).toMatchObject({ consistent: false });
    expect(v.summary).toContain('1 discrepancies (balance_mismatch)');
  });

  it('is inconsistent when the check cannot be read', () => {
    expect(ledgerVerdict(503, '{}').consistent).toBe(false);
    expect(ledgerVerdict(200, 'nope').consistent).toBe(false);
    expect(ledgerVerdict(200, '{"ok":true}').summary).toBe('GET /v1/ledger/check: not a ledger report');
  });
});
