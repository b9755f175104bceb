import { publicJson } from './views';

describe('publicJson', () => {
  it('snake_cases keys and drops enum prefixes, deeply', () => {
    expect(
      publicJson({ contractId: 'ctr_1', status: 'CONTRACT_STATUS_SETTLED', budget: { amount: '1', currency: 'CREDIT' }, artifactRefs: ['sha256:ab'] }),
    ).toEqual({ contract_id: 'ctr_1', status: 'settled', budget: { amount: '1', currency: 'CREDIT' }, artifact_refs: ['sha256:ab'] });
    expect(publicJson([{ escrowStatus: 'ESCROW_STATUS_HELD', note: 'KEEP_THIS' }])).toEqual([{ escrow_status: 'held', note: 'KEEP_THIS' }]);
  });
});
