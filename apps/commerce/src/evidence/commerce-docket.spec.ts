import { contentSha256, verifyDocket, type RecordEntry } from '@exchange/casefile';
import { casefileSources, exchangeKeys } from '../../test/support/evidence-fixtures';
import { commerceDocket, docketEntries, docketSubject, evidenceView, recordView } from './commerce-docket';
import { GENESIS_HASH } from './evidence-chain';

const now = new Date('2026-11-25T12:00:00.000Z');

describe('commerce docket', () => {
  it('should hold the session, mandate, every evidence item in chain order, purchase and receipt', () => {
    const sources = casefileSources(3);
    const entries = docketEntries(sources) as RecordEntry[];
    expect(entries.map((e) => [e.kind, e.ref])).toEqual([
      ['checkout_session', sources.session.commerceSessionId],
      ['mandate', 'mdt_1'],
      ...sources.evidence.map((e) => ['evidence', e.evidenceId]),
      ['purchase', 'deal_1'],
      ['receipt', 'rcpt_1'],
    ]);
    for (const e of entries) expect(e.sha256).toBe(contentSha256(e.content));
  });

  it('should show money as decimals, timestamps as ISO and keep the mandate signature and signed payload', () => {
    const entries = docketEntries(casefileSources(1)) as RecordEntry[];
    expect(entries[0].content).toMatchObject({ total: '12.5', list_total: '15', approved_total: null, created_at: '2026-11-25T09:59:00.000Z', discount_codes: ['SAVE'] });
    expect(entries[1].content).toMatchObject({ per_transaction: '50', total_limit: '100', spent: '12.5', reserved: '0', signature: 'c2ln', signed_payload: { agent_id: 'agt_buyer' } });
    expect(entries[3].content).toMatchObject({ amount: '12.5', list_amount: '15' });
    expect(recordView({ a: undefined, b: 1n }, ['b'])).toEqual({ a: null, b: '0.000001' });
  });

  it('should carry each evidence item with what recomputes its link', () => {
    const sources = casefileSources(2);
    const view = evidenceView(sources.evidence[1]);
    expect(view).toEqual({
      evidence_id: sources.evidence[1].evidenceId,
      commerce_session_id: sources.session.commerceSessionId,
      seq: 2,
      kind: 'merchant_response',
      operation: 'create_checkout',
      content: sources.evidence[1].content,
      content_sha256: sources.evidence[1].contentSha256,
      prev_hash: sources.evidence[0].hash,
      hash: sources.evidence[1].hash,
      schema_result: 'valid',
      recorded_at: '2026-11-25T10:00:01.000Z',
    });
  });

  it('should leave purchase and receipt out before a purchase, and pin the head in the subject', () => {
    const sources = casefileSources(0, { purchase: false });
    expect(docketEntries(sources).map((e) => e.kind)).toEqual(['checkout_session', 'mandate']);
    expect(docketSubject(sources)).toEqual({
      commerce_session_id: sources.session.commerceSessionId,
      merchant_domain: 'shop.example',
      buyer_agent_id: 'agt_buyer',
      evidence_head: GENESIS_HASH,
    });
  });

  it('should be signed by the exchange key and verify with libs/casefile', () => {
    const docket = commerceDocket(casefileSources(4), exchangeKeys.privateKey, now);
    expect(docket).toMatchObject({ exchange_pubkey: exchangeKeys.publicKey, created_at: now.toISOString() });
    const result = verifyDocket(JSON.parse(JSON.stringify(docket)), { trustedPublicKey: exchangeKeys.publicKey });
    expect(result.valid).toBe(true);
    expect(result.checks).toHaveLength(2 + 2 + 4 + 2);
  });
});
