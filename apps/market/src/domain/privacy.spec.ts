import { contractView, privateFilterViewer, seesBuyer } from './privacy';
import type { Contract } from './model';

const base = { buyerPrivate: true, buyerId: 'buyer', sellerId: 'seller' as string | null };

describe('private buyer views', () => {
  it('shows a private buyer to the buyer, the awarded seller, the operator on its own and internal calls only', () => {
    expect(seesBuyer(base, { actor: 'agent:buyer', agentId: 'buyer' })).toBe(true);
    expect(seesBuyer(base, { actor: 'agent:seller', agentId: 'seller' })).toBe(true);
    expect(seesBuyer(base, { actor: 'operator:ops', agentId: null })).toBe(true);
    expect(seesBuyer(base, { actor: null, agentId: null })).toBe(true);
    expect(seesBuyer(base, { actor: 'agent:other', agentId: 'other' })).toBe(false);
    expect(seesBuyer(base, { actor: 'operator:ops', agentId: 'other' })).toBe(false);
    expect(seesBuyer({ ...base, sellerId: null }, { actor: 'agent:seller', agentId: null })).toBe(false);
    expect(seesBuyer({ ...base, buyerPrivate: false }, { actor: 'agent:other', agentId: 'other' })).toBe(true);
  });

  it('empties buyer_id in the view only, keeping the alias', () => {
    const c = { ...base, contractId: 'ctr_1', buyerAlias: 'anon:abcdefgh2345' } as unknown as Contract;
    expect(contractView(c, { actor: 'agent:other', agentId: 'other' })).toMatchObject({ buyerId: '', buyerAlias: 'anon:abcdefgh2345' });
    expect(c.buyerId).toBe('buyer');
    expect(contractView(c, { actor: 'agent:buyer', agentId: 'buyer' })).toBe(c);
  });

  it('names the viewer the buyer_id filter hides private contracts from', () => {
    expect(privateFilterViewer({ actor: 'agent:a', agentId: null })).toBe('a');
    expect(privateFilterViewer({ actor: 'operator:ops', agentId: 'b' })).toBe('b');
    expect(privateFilterViewer({ actor: 'operator:ops', agentId: null })).toBeUndefined();
  });
});
