import { walletV1 } from '@exchange/proto';
import { fromGrpc, fromJson, isConsistent, MalformedReportError, toJson, unbalancedCurrencies, type LedgerReport } from './report';

const clean: LedgerReport = {
  ok: true,
  accountsChecked: 12n,
  entriesChecked: 40n,
  postingsChecked: 90n,
  globalSums: { CREDIT: '0', EUR: '0' },
  discrepancies: [],
  checkedAt: '2026-11-21T18:00:00.000Z',
};

describe('fromGrpc', () => {
  it('reads a CheckLedgerResponse, int64 strings as bigints and the timestamp as RFC 3339', () => {
    const res = walletV1.CheckLedgerResponse.fromPartial({
      ok: false,
      accountsChecked: '9007199254740993',
      entriesChecked: '3',
      postingsChecked: '6',
      globalSums: { CREDIT: '0.5' },
      discrepancies: [{ kind: 'global_sum', subject: 'CREDIT', expected: '0', actual: '0.5', detail: 'sum of accounts' }],
      checkedAt: new Date('2026-11-21T18:00:00.000Z'),
    });
    expect(fromGrpc(res)).toEqual({
      ok: false,
      accountsChecked: 9007199254740993n,
      entriesChecked: 3n,
      postingsChecked: 6n,
      globalSums: { CREDIT: '0.5' },
      discrepancies: [{ kind: 'global_sum', subject: 'CREDIT', expected: '0', actual: '0.5', detail: 'sum of accounts' }],
      checkedAt: '2026-11-21T18:00:00.000Z',
    });
  });
});

describe('fromJson', () => {
  it('reads the gateway snake_case form, counts as numbers or strings', () => {
    const report = fromJson({
      ok: true,
      accounts_checked: 12,
      entries_checked: '40',
      postings_checked: 90,
      global_sums: { CREDIT: '0', EUR: '0' },
      discrepancies: [],
      checked_at: '2026-11-21T18:00:00.000Z',
    });
    expect(report).toEqual(clean);
  });

  it('reads proto JSON (camelCase, zero counts and false left out)', () => {
    const json = walletV1.CheckLedgerResponse.toJSON(
      walletV1.CheckLedgerResponse.fromPartial({
        ok: false,
        entriesChecked: '2',
        discrepancies: [{ kind: 'unbalanced_entry', subject: 'jrn_1', expected: '0', actual: '1', detail: '' }],
        checkedAt: new Date('2026-11-21T18:00:00.000Z'),
      }),
    );
    expect(fromJson(json)).toEqual({
      ok: false,
      accountsChecked: 0n,
      entriesChecked: 2n,
      postingsChecked: 0n,
      globalSums: {},
      discrepancies: [{ kind: 'unbalanced_entry', subject: 'jrn_1', expected: '0', actual: '1', detail: '' }],
      checkedAt: '2026-11-21T18:00:00.000Z',
    });
  });

  it.each([
    ['an array', []],
    ['a problem document', { type: 'https://agent-exchange.dev/errors/x', status: 500, code: 'x' }],
    ['a negative count', { ok: true, accounts_checked: -1 }],
    ['a fractional count', { ok: true, accounts_checked: 1.5 }],
    ['ok as a string', { ok: 'true', accounts_checked: 1 }],
    ['discrepancies not a list', { ok: true, accounts_checked: 1, discrepancies: {} }],
    ['a global sum that is an object', { ok: true, accounts_checked: 1, global_sums: { CREDIT: {} } }],
  ])('refuses %s', (_name, body) => {
    expect(() => fromJson(body)).toThrow(MalformedReportError);
  });
});

describe('consistency', () => {
  it('is consistent only with ok, no discrepancy and every global sum zero', () => {
    expect(isConsistent(clean)).toBe(true);
    expect(isConsistent({ ...clean, ok: false })).toBe(false);
    expect(isConsistent({ ...clean, discrepancies: [{ kind: 'balance_mismatch', subject: 'a', expected: '1', actual: '2', detail: '' }] })).toBe(false);
    // A service that says ok while a currency does not balance is not believed.
    expect(isConsistent({ ...clean, globalSums: { CREDIT: '0', EUR: '-0.000001' } })).toBe(false);
  });

  it('treats "0", "0.0" and "-0" as zero and lists the others sorted', () => {
    expect(unbalancedCurrencies({ ...clean, globalSums: { USD: '0.0', CREDIT: '-0', EUR: '3', AAA: '-0.1' } })).toEqual(['AAA', 'EUR']);
  });

  it('prints JSON with the verdict, counts as numbers', () => {
    expect(toJson({ ...clean, globalSums: { CREDIT: '1' } }, 'src')).toEqual({
      source: 'src',
      consistent: false,
      ok: true,
      accounts_checked: 12,
      entries_checked: 40,
      postings_checked: 90,
      global_sums: { CREDIT: '1' },
      unbalanced_currencies: ['CREDIT'],
      discrepancies: [],
      checked_at: '2026-11-21T18:00:00.000Z',
    });
    expect(toJson({ ...clean, postingsChecked: 2n ** 60n }, 'src').postings_checked).toBe('1152921504606846976');
  });
});
