import { accountId, agentAccount, merchantAccount } from './accounts';
import {
  balancedPostings,
  consumePostings,
  depositPostings,
  faucetPostings,
  holdPostings,
  releasePostings,
  transferPostings,
  withdrawalPayoutPostings,
  type Posting,
} from './postings';

const A = 'acme:agent:alice';
const B = 'acme:agent:bob';
const sum = (ps: Posting[]) => ps.reduce((s, p) => s + p.amount, 0n);
const lines = (ps: Posting[]) => Object.fromEntries(ps.map((p) => [accountId(p.account), p.amount]));

describe('posting builders', () => {
  it.each([
    ['faucet', faucetPostings(A, 'CREDIT', 5n), { 'system/CREDIT/faucet': -5n, [`${A}/CREDIT/available`]: 5n }],
    ['transfer', transferPostings(A, B, 'EUR', 7n), { [`${A}/EUR/available`]: -7n, [`${B}/EUR/available`]: 7n }],
    ['hold', holdPostings(A, 'CREDIT', 3n), { [`${A}/CREDIT/available`]: -3n, [`${A}/CREDIT/held`]: 3n }],
    ['release', releasePostings(A, 'CREDIT', 3n), { [`${A}/CREDIT/held`]: -3n, [`${A}/CREDIT/available`]: 3n }],
    ['deposit', depositPostings(A, 'USD', 9n), { 'system/USD/deposits_clearing': -9n, [`${A}/USD/available`]: 9n }],
    ['withdrawal payout', withdrawalPayoutPostings(A, 'USD', 9n), { [`${A}/USD/held`]: -9n, 'system/USD/withdrawals_clearing': 9n }],
  ])('should build %s postings that sum to zero', (_name, postings, expected) => {
    expect(sum(postings)).toBe(0n);
    expect(lines(postings)).toEqual(expected);
  });

  it('should split a consume into payee, fee and refund', () => {
    const ps = consumePostings({ payer: A, payee: agentAccount(B, 'CREDIT', 'available'), currency: 'CREDIT', held: 100n, amount: 60n, fee: 6n });
    expect(sum(ps)).toBe(0n);
    expect(lines(ps)).toEqual({
      [`${A}/CREDIT/held`]: -100n,
      [`${B}/CREDIT/available`]: 54n,
      'system/CREDIT/fees': 6n,
      [`${A}/CREDIT/available`]: 40n,
    });
  });

  it('should drop zero lines of a whole consume without fee', () => {
    const ps = consumePostings({ payer: A, payee: agentAccount(B, 'CREDIT', 'available'), currency: 'CREDIT', held: 100n, amount: 100n, fee: 0n });
    expect(lines(ps)).toEqual({ [`${A}/CREDIT/held`]: -100n, [`${B}/CREDIT/available`]: 100n });
  });

  it("should pay a merchant's settlement account when the payee is one", () => {
    const shop = merchantAccount('merchant:shop.example.com', 'CREDIT');
    const ps = consumePostings({ payer: A, payee: shop, currency: 'CREDIT', held: 100n, amount: 100n, fee: 0n });
    expect(lines(ps)).toEqual({ [`${A}/CREDIT/held`]: -100n, 'merchant:shop.example.com/CREDIT/merchant_settlement': 100n });
  });

  it('should refuse consume amounts outside the hold', () => {
    expect(() => consumePostings({ payer: A, payee: agentAccount(B, 'CREDIT', 'available'), currency: 'CREDIT', held: 10n, amount: 11n, fee: 0n })).toThrow();
    expect(() => consumePostings({ payer: A, payee: agentAccount(B, 'CREDIT', 'available'), currency: 'CREDIT', held: 10n, amount: 5n, fee: 6n })).toThrow();
  });

  it('should sort lines by account id, the lock order', () => {
    const ids = transferPostings(B, A, 'CREDIT', 1n).map((p) => accountId(p.account));
    expect(ids).toEqual([...ids].sort());
  });

  it('should merge lines of one account and refuse unbalanced input', () => {
    const acc = { owner: A, currency: 'CREDIT', kind: 'available' as const };
    const other = { owner: B, currency: 'CREDIT', kind: 'available' as const };
    expect(balancedPostings([{ account: acc, amount: 2n }, { account: acc, amount: -1n }, { account: other, amount: -1n }])).toEqual([
      { account: acc, amount: 1n },
      { account: other, amount: -1n },
    ]);
    expect(() => balancedPostings([{ account: acc, amount: 1n }])).toThrow(/does not balance/);
  });
});
