import { PRIVATE_BUYER_MARK, withCurrentAlias } from './public-alias';

describe('withCurrentAlias', () => {
  it('replaces every buyer alias key at any depth, in objects and arrays', () => {
    const data = {
      contract: { contract_id: 'ctr_1', buyer_alias: 'anon:OLD', tags: ['a'] },
      dispute: { opened_by: '', nested: [{ buyerAlias: 'anon:OLD' }, { other: 1 }] },
      buyer_alias: 'anon:OLD',
    };
    expect(withCurrentAlias(data, 'anon:NEW')).toEqual({
      contract: { contract_id: 'ctr_1', buyer_alias: 'anon:NEW', tags: ['a'] },
      dispute: { opened_by: '', nested: [{ buyerAlias: 'anon:NEW' }, { other: 1 }] },
      buyer_alias: 'anon:NEW',
    });
  });

  it('blanks a stale alias when the contract has none now, and adds no key that was absent', () => {
    expect(withCurrentAlias({ contract: { buyer_alias: 'anon:OLD' } }, null)).toEqual({ contract: { buyer_alias: null } });
    expect(withCurrentAlias({ contract: { title: 't' } }, 'anon:NEW')).toEqual({ contract: { title: 't' } });
  });

  it('reads the private buyer mark as the alias now, alone or in text; as empty without one', () => {
    const data = { dispute: { opened_by: PRIVATE_BUYER_MARK }, post: { body: `ask ${PRIVATE_BUYER_MARK} first` } };
    expect(withCurrentAlias(data, 'anon:NEW')).toEqual({ dispute: { opened_by: 'anon:NEW' }, post: { body: 'ask anon:NEW first' } });
    expect(withCurrentAlias(data, null)).toEqual({ dispute: { opened_by: '' }, post: { body: 'ask  first' } });
  });

  it('leaves scalars alone and does not change its input', () => {
    const data = { buyer_alias: 'anon:OLD', n: 1, s: 'buyer_alias', b: false, z: null };
    const copy = structuredClone(data);
    expect(withCurrentAlias(data, 'anon:NEW')).toEqual({ ...copy, buyer_alias: 'anon:NEW' });
    expect(data).toEqual(copy);
    expect(withCurrentAlias('text', 'x')).toBe('text');
    expect(withCurrentAlias(3, 'x')).toBe(3);
  });
});
