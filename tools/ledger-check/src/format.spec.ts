import { EXIT_DISCREPANCIES, EXIT_OK, exitCodeFor, formatReport } from './format';
import type { LedgerReport } from './report';

const clean: LedgerReport = {
  ok: true,
  accountsChecked: 1234n,
  entriesChecked: 5678901n,
  postingsChecked: 12n,
  globalSums: { EUR: '0', CREDIT: '0' },
  discrepancies: [],
  checkedAt: '2026-11-21T18:00:00.000Z',
};

describe('formatReport', () => {
  it('prints what was checked, the sums and the verdict', () => {
    expect(formatReport(clean, 'gRPC CheckLedger at 127.0.0.1:1')).toBe(
      [
        'Ledger check (gRPC CheckLedger at 127.0.0.1:1) at 2026-11-21T18:00:00.000Z',
        '',
        '  accounts checked   1,234',
        '  journal entries    5,678,901',
        '  postings           12',
        '  global sums (every account of a currency, must be 0)',
        '    CREDIT  0',
        '    EUR     0',
        '',
        'Result: OK, the ledger is consistent',
      ].join('\n'),
    );
  });

  it('lists every discrepancy with a summary by kind and marks a non-zero sum', () => {
    const text = formatReport(
      {
        ...clean,
        ok: false,
        globalSums: { CREDIT: '0.5' },
        discrepancies: [
          { kind: 'balance_mismatch', subject: 'acct CREDIT available acme:agent:a', expected: '10', actual: '10.5', detail: 'journal says 10' },
          { kind: 'global_sum', subject: 'CREDIT', expected: '0', actual: '0.5', detail: '' },
          { kind: 'balance_mismatch', subject: '', expected: '', actual: '', detail: '' },
        ],
      },
      'src',
    );
    expect(text).toContain('    CREDIT  0.5   <- NOT ZERO');
    expect(text).toContain('Discrepancies (3: balance_mismatch 2, global_sum 1)');
    expect(text).toContain('  1. balance_mismatch  acct CREDIT available acme:agent:a\n     expected 10, actual 10.5\n     journal says 10');
    expect(text).toContain('  2. global_sum  CREDIT\n     expected 0, actual 0.5\n  3.');
    expect(text).toContain('  3. balance_mismatch  (no subject)');
    expect(text.endsWith('Result: FAILED, 3 discrepancies; global sum not zero for CREDIT; the service reported ok=false')).toBe(true);
  });

  it('says so when there is no account yet', () => {
    expect(formatReport({ ...clean, globalSums: {}, checkedAt: null }, 'src')).toContain('(no currency has an account yet)');
  });
});

describe('exitCodeFor', () => {
  it('is 0 when consistent, 1 otherwise', () => {
    expect(exitCodeFor(clean)).toBe(EXIT_OK);
    expect(exitCodeFor({ ...clean, ok: false })).toBe(EXIT_DISCREPANCIES);
    expect(exitCodeFor({ ...clean, globalSums: { CREDIT: '2' } })).toBe(EXIT_DISCREPANCIES);
    expect(exitCodeFor({ ...clean, discrepancies: [{ kind: 'k', subject: 's', expected: '', actual: '', detail: '' }] })).toBe(EXIT_DISCREPANCIES);
  });
});
