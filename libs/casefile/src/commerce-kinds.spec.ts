// The commerce record kinds (checkout_session, mandate, evidence, purchase) build, sign, archive and
// verify like every other record kind; tampering one names that entry.
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { readArchive, recordEntry, RECORD_KINDS, signDocket, verifyArchive, verifyDocket, writeArchive, type Docket } from './index';

const keys = generateKeyPair();
const trusted = toBase64(keys.publicKey);

function commerceDocket(): Docket {
  return signDocket(
    {
      subject: { commerce_session_id: 'cs_1', merchant_domain: 'shop.example', buyer_agent_id: 'agt_1', evidence_head: 'a'.repeat(64) },
      entries: [
        recordEntry('checkout_session', 'cs_1', { commerce_session_id: 'cs_1', status: 'completed', total: '12.5' }),
        recordEntry('mandate', 'mdt_1', { mandate_id: 'mdt_1', signature: 'c2ln', signed_payload: { limits: { total: '100' } } }),
        recordEntry('evidence', 'evd_1', { evidence_id: 'evd_1', seq: 1, prev_hash: '0'.repeat(64), hash: 'a'.repeat(64), content: { body: { id: 'x' } } }),
        recordEntry('purchase', 'deal_1', { deal_id: 'deal_1', amount: '12.5', currency: 'USD' }),
        recordEntry('receipt', 'rcp_1', { receipt_id: 'rcp_1', amount: '12.5' }),
      ],
      createdAt: new Date('2026-11-25T10:00:00.000Z'),
    },
    keys.privateKey,
  );
}

describe('commerce record kinds', () => {
  it('should be record kinds', () => {
    expect(RECORD_KINDS).toEqual(expect.arrayContaining(['checkout_session', 'mandate', 'evidence', 'purchase', 'receipt']));
  });

  it('should verify a commerce docket with every check ok', () => {
    const result = verifyDocket(JSON.parse(JSON.stringify(commerceDocket())), { trustedPublicKey: trusted });
    expect(result.valid).toBe(true);
    expect(result.checks.map((c) => c.ref)).toEqual(['docket', 'signature', 'cs_1', 'mdt_1', 'evd_1', 'deal_1', 'rcp_1']);
  });

  it('should fail at the evidence entry whose content was changed', () => {
    const docket = JSON.parse(JSON.stringify(commerceDocket())) as Docket;
    const evidence = docket.entries[2] as unknown as { content: { content: { body: { id: string } } } };
    evidence.content.content.body.id = 'y';
    const result = verifyDocket(docket, { trustedPublicKey: trusted });
    expect(result.valid).toBe(false);
    expect(result.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual(['signature', 'evd_1']);
  });

  it('should verify as an archive (the offline CLI path)', async () => {
    const archive = await writeArchive(commerceDocket(), new Map());
    expect((await readArchive(archive)).docket.entries).toHaveLength(5);
    expect(await verifyArchive(archive, { trustedPublicKey: trusted })).toMatchObject({ valid: true });
  });
});
