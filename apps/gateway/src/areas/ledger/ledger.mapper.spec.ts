import { ledgerReportToJson } from './ledger.mapper';

describe('ledgerReportToJson', () => {
  it('should turn int64 counts into numbers and keep sums and discrepancies', () => {
    expect(
      ledgerReportToJson({
        ok: false,
        accountsChecked: '12',
        entriesChecked: '40',
        postingsChecked: '86',
        globalSums: { CREDIT: '0', USD: '-1' },
        discrepancies: [{ kind: 'global_sum', subject: 'USD', expected: '0', actual: '-1', detail: 'accounts of USD sum to -1' }],
        checkedAt: new Date('2026-11-21T18:00:00.000Z'),
      }),
    ).toEqual({
      ok: false,
      accounts_checked: 12,
      entries_checked: 40,
      postings_checked: 86,
      global_sums: { CREDIT: '0', USD: '-1' },
      discrepancies: [{ kind: 'global_sum', subject: 'USD', expected: '0', actual: '-1', detail: 'accounts of USD sum to -1' }],
      checked_at: '2026-11-21T18:00:00.000Z',
    });
  });
});
