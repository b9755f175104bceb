import { faucetPostings } from '../domain/postings';
import { applyArguments } from './wallet-apply';

describe('applyArguments', () => {
  it('should spell a plan as wallet_apply()\'s 24 arguments', () => {
    const now = new Date('2026-11-21T12:00:00.000Z');
    const args = applyArguments({
      now,
      control: 'faucet',
      idempotency: { scope: 'a:agent:b', key: 'k', fingerprint: 'fp', operation: 'faucet' },
      counter: { key: 'faucet/a:agent:b/x', day: '2026-11-21', expect: 5n, delta: 10n },
      entry: { entryId: 'jrn_1', kind: 'faucet', currency: 'CREDIT', postings: faucetPostings('a:agent:b', 'CREDIT', 10n) },
      events: [],
      response: { grant: {} },
    });
    expect(args).toEqual([
      'faucet', 'a:agent:b', 'k', 'fp', 'faucet', null,
      null, null, null,
      'faucet/a:agent:b/x', '2026-11-21', '5', '10',
      'jrn_1', 'faucet', 'CREDIT',
      ['a:agent:b/CREDIT/available', 'system/CREDIT/faucet'], ['a:agent:b', 'system'], ['available', 'faucet'], ['10', '-10'],
      '[]', '[]', '{"grant":{}}', '2026-11-21T12:00:00.000Z',
    ]);
  });

  it('should pass NULLs for what a plan leaves out', () => {
    const args = applyArguments({ now: new Date(0), error: { grpc_code: 9, code: 'invalid_state', message: 'm' } });
    expect(args.slice(0, 6)).toEqual([null, null, null, null, null, '{"grpc_code":9,"code":"invalid_state","message":"m"}']);
    expect(args[11]).toBeNull();
    expect(args[12]).toBe('0');
    expect(args[22]).toBeNull();
  });
});
