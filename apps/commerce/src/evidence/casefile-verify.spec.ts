import { docketJson, signDocket, type Docket } from '@exchange/casefile';
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { casefileSources, exchangeKeys } from '../../test/support/evidence-fixtures';
import { commerceDocket } from './commerce-docket';
import { evidenceChainCheck, MAX_DOCKET_DEPTH, parseDocketJson, verifyCommerceDocket } from './casefile-verify';

const now = new Date('2026-11-25T12:00:00.000Z');

function exported(count = 3): { docket: Docket; sessionId: string; evidenceIds: string[] } {
  const sources = casefileSources(count);
  const docket = JSON.parse(docketJson(commerceDocket(sources, exchangeKeys.privateKey, now))) as Docket;
  return { docket, sessionId: sources.session.commerceSessionId, evidenceIds: sources.evidence.map((e) => e.evidenceId) };
}

type Content = Record<string, unknown> & { content: Record<string, unknown> };
const contentAt = (docket: Docket, ref: string): Content => (docket.entries.find((e) => e.ref === ref) as unknown as { content: Content }).content;
const failed = (result: { checks: Array<{ ref: string; ok: boolean }> }) => result.checks.filter((c) => !c.ok).map((c) => c.ref);
const opts = (sessionId: string) => ({ trustedPublicKey: exchangeKeys.publicKey, sessionId });

/** Re-signs a changed docket with the exchange key: only the chain check can catch what changed. */
const resign = (d: Docket): Docket =>
  JSON.parse(JSON.stringify(signDocket({ subject: d.subject, entries: d.entries, createdAt: d.created_at, docketId: d.docket_id }, exchangeKeys.privateKey))) as Docket;

describe('commerce casefile verification', () => {
  it('should find an exported docket valid, chain and subject included', () => {
    const { docket, sessionId } = exported();
    const result = verifyCommerceDocket(docket, opts(sessionId));
    expect(result.valid).toBe(true);
    expect(result.docket_id).toBe(docket.docket_id);
    expect(result.checks.slice(-2)).toEqual([
      { ref: 'evidence_chain', ok: true },
      { ref: 'subject', ok: true },
    ]);
  });

  it('should be invalid at the evidence entry whose content was changed', () => {
    const { docket, sessionId, evidenceIds } = exported();
    contentAt(docket, evidenceIds[1]).content['status'] = 500;
    const result = verifyCommerceDocket(docket, opts(sessionId));
    expect(result.valid).toBe(false);
    expect(failed(result)).toEqual(['signature', evidenceIds[1], 'evidence_chain']);
    expect(result.checks.find((c) => c.ref === 'evidence_chain')?.reason).toContain(`broken at ${evidenceIds[1]} (item 2)`);
  });

  it('should catch a chain broken inside a docket whose entry hashes and signature are consistent', () => {
    const { docket, sessionId, evidenceIds } = exported();
    const reordered = resign({ ...docket, entries: [docket.entries[0], docket.entries[1], docket.entries[3], docket.entries[2], ...docket.entries.slice(4)] });
    expect(failed(verifyCommerceDocket(reordered, opts(sessionId)))).toEqual(['evidence_chain']);

    const dropped = resign({ ...docket, entries: docket.entries.filter((e) => e.ref !== evidenceIds[2]) });
    const result = verifyCommerceDocket(dropped, opts(sessionId));
    expect(failed(result)).toEqual(['evidence_chain']);
    expect(result.checks.find((c) => c.ref === 'evidence_chain')?.reason).toMatch(/the 2 evidence items reach [0-9a-f]{64}, not subject.evidence_head/);

    const otherHead = resign({ ...docket, subject: { ...docket.subject, evidence_head: 'f'.repeat(64) } });
    expect(failed(verifyCommerceDocket(otherHead, opts(sessionId)))).toEqual(['evidence_chain']);
  });

  it('should name what is wrong with a link', () => {
    const { docket, evidenceIds } = exported();
    const reasons = (mutate: (c: Content) => void): string | undefined => {
      const copy = JSON.parse(JSON.stringify(docket)) as Docket;
      mutate(contentAt(copy, evidenceIds[0]));
      return evidenceChainCheck(copy).reason;
    };
    expect(reasons((c) => (c['seq'] = 7))).toContain('seq is 7, expected 1');
    expect(reasons((c) => (c['prev_hash'] = 'e'.repeat(64)))).toContain('prev_hash');
    expect(reasons((c) => (c['hash'] = 'e'.repeat(64)))).toContain('hash is not sha256');
    expect(reasons((c) => (c['commerce_session_id'] = 'cs_other'))).toContain('another session');
    expect(evidenceChainCheck({ subject: {} }).reason).toContain('evidence_head');
  });

  it('should fail the signature with another trusted key and the subject for another session', () => {
    const { docket, sessionId } = exported(1);
    expect(failed(verifyCommerceDocket(docket, { trustedPublicKey: toBase64(generateKeyPair().publicKey), sessionId }))).toEqual(['signature']);
    expect(failed(verifyCommerceDocket(docket, { trustedPublicKey: 'not-a-key', sessionId }))).toEqual(['signature']);
    expect(failed(verifyCommerceDocket(docket, opts('cs_other')))).toEqual(['subject']);
    expect(verifyCommerceDocket(docket, opts('')).checks.map((c) => c.ref)).not.toContain('subject');
  });

  it('should answer hostile dockets with failing checks, never a throw', () => {
    for (const hostile of [null, 42, 'text', [], {}, { entries: [null, { kind: 'evidence' }], subject: { evidence_head: '0'.repeat(64) } }, { subject: { x: 1e308 * 10 } }]) {
      const result = verifyCommerceDocket(hostile, opts('cs_1'));
      expect(result.valid).toBe(false);
      expect(result.checks.length).toBeGreaterThan(0);
    }
  });

  it('should refuse docket_json that is not JSON or is nested too deep with 400 casefile_unreadable', () => {
    expect(() => parseDocketJson('{"docket_id":')).toThrow(expect.objectContaining({ code: 'casefile_unreadable' }));
    const deep = `${'['.repeat(MAX_DOCKET_DEPTH + 1)}${']'.repeat(MAX_DOCKET_DEPTH + 1)}`;
    expect(() => parseDocketJson(deep)).toThrow(expect.objectContaining({ code: 'casefile_unreadable' }));
    expect(() => parseDocketJson('['.repeat(500_000) + ']'.repeat(500_000))).toThrow(expect.objectContaining({ code: 'casefile_unreadable' }));
    const { docket } = exported(1);
    expect(parseDocketJson(JSON.stringify(docket))).toEqual(docket);
  });
});
