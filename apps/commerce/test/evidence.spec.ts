// The evidence area over gRPC against real PostgreSQL (commerce with identity and wallet-ledger):
// ListArtifacts pages and authorization, casefile export → verify, tampering, hostile input, and
// the exported docket verified offline by the `exchange casefile verify` CLI.
import { status } from '@grpc/grpc-js';
import { docketJson, writeArchive, type Docket } from '@exchange/casefile';
import { errorInfoFromGrpc, newId, type GrpcErrorInfo } from '@exchange/platform';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { contentHash, linkHash } from '../src/evidence/evidence-chain';
import { startEvidenceHarness, type EvidenceHarness } from './support/evidence-harness';

jest.setTimeout(60_000);

async function grpcError(call: Promise<unknown>): Promise<GrpcErrorInfo> {
  try {
    await call;
  } catch (err) {
    return errorInfoFromGrpc(err);
  }
  throw new Error('expected the call to fail');
}

const OPERATOR = { agentId: '', operator: true };
const as = (agentId: string) => ({ agentId, operator: false });

describe('commerce evidence (gRPC, PostgreSQL)', () => {
  let h: EvidenceHarness;
  beforeAll(async () => {
    h = await startEvidenceHarness();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  describe('ListArtifacts', () => {
    it('should page the chain in order with opaque cursors, chain_valid on every page', async () => {
      const { sessionId, buyerAgentId } = await h.insertSession({ evidence: 5 });
      const seen: number[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const res = await h.client.listArtifacts({ actor: as(buyerAgentId), commerceSessionId: sessionId, page: { limit: 2, cursor } });
        expect(res.chainValid).toBe(true);
        seen.push(...res.items.map((i) => i.seq));
        cursor = res.page?.nextCursor ?? '';
        pages++;
      } while (cursor !== '');
      expect(seen).toEqual([1, 2, 3, 4, 5]);
      expect(pages).toBe(3);

      const all = await h.client.listArtifacts({ actor: OPERATOR, commerceSessionId: sessionId, page: { limit: 200, cursor: '' } });
      expect(all.items).toHaveLength(5);
      const [first, second] = all.items;
      expect(first).toMatchObject({ commerceSessionId: sessionId, seq: 1, kind: 'merchant_request', operation: 'create_checkout', prevHash: '0'.repeat(64), schemaResult: 'valid' });
      expect(first.evidenceId).toMatch(/^evd_/);
      expect(first.recordedAt).toBeInstanceOf(Date);
      expect(first.contentSha256).toBe(contentHash(JSON.parse(first.contentJson)));
      expect(first.hash).toBe(linkHash('0'.repeat(64), first.contentSha256));
      expect(second.prevHash).toBe(first.hash);
      const { rows } = await h.sql.query<{ evidence_head: string }>('SELECT evidence_head FROM checkout_sessions WHERE commerce_session_id = $1', [sessionId]);
      expect(all.items[4].hash).toBe(rows[0].evidence_head);
    });

    it('should list an empty chain as valid', async () => {
      const { sessionId, buyerAgentId } = await h.insertSession();
      const res = await h.client.listArtifacts({ actor: as(buyerAgentId), commerceSessionId: sessionId, page: undefined });
      expect(res).toMatchObject({ items: [], chainValid: true, page: { nextCursor: '' } });
    });

    it('should report chain_valid false once a stored item was altered', async () => {
      const { sessionId } = await h.insertSession({ evidence: 3 });
      await h.sql.query(`UPDATE evidence SET content = jsonb_set(content, '{status}', '500') WHERE commerce_session_id = $1 AND seq = 2`, [sessionId]);
      const res = await h.client.listArtifacts({ actor: OPERATOR, commerceSessionId: sessionId, page: { limit: 1, cursor: '' } });
      expect(res.items).toHaveLength(1);
      expect(res.chainValid).toBe(false);
    });

    it('should refuse another agent (403), an unknown session (404) and bad input (400)', async () => {
      const { sessionId } = await h.insertSession({ evidence: 1 });
      expect(await grpcError(h.client.listArtifacts({ actor: as('agt_stranger'), commerceSessionId: sessionId, page: undefined }))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'not_session_buyer',
      });
      expect(await grpcError(h.client.listArtifacts({ actor: undefined, commerceSessionId: sessionId, page: undefined }))).toMatchObject({ code: 'not_session_buyer' });
      for (const id of [newId('cs'), 'cs_\u0000bad', 'x'.repeat(5000)]) {
        expect(await grpcError(h.client.listArtifacts({ actor: OPERATOR, commerceSessionId: id, page: undefined }))).toMatchObject({
          grpcCode: status.NOT_FOUND,
          code: 'checkout_session_not_found',
        });
      }
      expect(await grpcError(h.client.listArtifacts({ actor: OPERATOR, commerceSessionId: '', page: undefined }))).toMatchObject({ code: 'validation_failed' });
      expect(await grpcError(h.client.listArtifacts({ actor: OPERATOR, commerceSessionId: sessionId, page: { limit: 201, cursor: '' } }))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'invalid_limit',
      });
      expect(await grpcError(h.client.listArtifacts({ actor: OPERATOR, commerceSessionId: sessionId, page: { limit: 0, cursor: 'bogus!' } }))).toMatchObject({
        code: 'invalid_cursor',
      });
    });
  });

  describe('ExportCasefile and VerifyCasefile', () => {
    it('should export a signed docket of the session, mandate, chain, purchase and receipt that verifies', async () => {
      const { sessionId, buyerAgentId, mandateId } = await h.insertSession({ evidence: 4, purchase: true });
      const { docketJson: text } = await h.client.exportCasefile({ actor: as(buyerAgentId), commerceSessionId: sessionId });
      const docket = JSON.parse(text) as Docket;
      expect(docket.exchange_pubkey).toBe(h.exchangePublicKey);
      expect(docket.entries.map((e) => e.kind)).toEqual(['checkout_session', 'mandate', 'evidence', 'evidence', 'evidence', 'evidence', 'purchase', 'receipt']);
      expect(docket.subject).toMatchObject({ commerce_session_id: sessionId, merchant_domain: 'shop.example', buyer_agent_id: buyerAgentId });
      const session = docket.entries[0] as { ref: string; content: Record<string, unknown> };
      expect(session.ref).toBe(sessionId);
      expect(session.content).toMatchObject({ total: '12.5', list_total: '15', status: 'completed', discount_codes: ['SAVE10'] });
      expect(session.content).not.toHaveProperty('reserved_amount');
      expect(session.content).not.toHaveProperty('payment_updated_at');
      expect(docket.entries[1]).toMatchObject({ ref: mandateId, content: { signature: 'c2lnbmF0dXJl', signed_payload: { mandate_id: mandateId }, total_limit: '100' } });

      const verdict = await h.client.verifyCasefile({ actor: as(buyerAgentId), commerceSessionId: sessionId, docketJson: text });
      expect(verdict.valid).toBe(true);
      expect(verdict.docketId).toBe(docket.docket_id);
      expect(verdict.checks.map((c) => c.ref)).toEqual(['docket', 'signature', ...docket.entries.map((e) => e.ref), 'evidence_chain', 'subject']);

      // Without a docket: exported now and verified.
      const stored = await h.client.verifyCasefile({ actor: OPERATOR, commerceSessionId: sessionId });
      expect(stored.valid).toBe(true);
      expect(stored.docketId).not.toBe(docket.docket_id);
    });

    it('should find a tampered evidence content invalid at that ref, and another key or session invalid', async () => {
      const { sessionId, buyerAgentId } = await h.insertSession({ evidence: 3 });
      const { docketJson: text } = await h.client.exportCasefile({ actor: OPERATOR, commerceSessionId: sessionId });
      const docket = JSON.parse(text) as Docket;
      const target = docket.entries[3] as unknown as { ref: string; content: { content: Record<string, unknown> } };
      target.content.content['status'] = 200;
      const verdict = await h.client.verifyCasefile({ actor: as(buyerAgentId), commerceSessionId: sessionId, docketJson: JSON.stringify(docket) });
      expect(verdict.valid).toBe(false);
      expect(verdict.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual(['signature', target.ref, 'evidence_chain']);

      const otherKey = await h.client.verifyCasefile({ actor: OPERATOR, commerceSessionId: sessionId, docketJson: text, exchangePublicKey: 'A'.repeat(43) + '=' });
      expect(otherKey.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual(['signature']);
      const other = await h.insertSession();
      const wrongSession = await h.client.verifyCasefile({ actor: OPERATOR, commerceSessionId: other.sessionId, docketJson: text });
      expect(wrongSession.checks.filter((c) => !c.ok).map((c) => c.ref)).toEqual(['subject']);
    });

    it('should see evidence appended after an export: the old docket still verifies, a new one has the new head', async () => {
      const { sessionId, buyerAgentId } = await h.insertSession({ evidence: 2 });
      const before = (await h.client.exportCasefile({ actor: as(buyerAgentId), commerceSessionId: sessionId })).docketJson;
      await h.appendItems(sessionId, 2);
      const after = JSON.parse((await h.client.exportCasefile({ actor: as(buyerAgentId), commerceSessionId: sessionId })).docketJson) as Docket;
      expect(after.entries.filter((e) => e.kind === 'evidence')).toHaveLength(4);
      expect(after.subject['evidence_head']).not.toBe((JSON.parse(before) as Docket).subject['evidence_head']);
      expect((await h.client.verifyCasefile({ actor: OPERATOR, commerceSessionId: sessionId, docketJson: before })).valid).toBe(true);
    });

    it('should refuse export to others and malformed docket_json with 4xx, and answer hostile dockets with failing checks', async () => {
      const { sessionId } = await h.insertSession({ evidence: 1 });
      expect(await grpcError(h.client.exportCasefile({ actor: as('agt_stranger'), commerceSessionId: sessionId }))).toMatchObject({ code: 'not_session_buyer' });
      expect(await grpcError(h.client.verifyCasefile({ actor: as('agt_stranger'), commerceSessionId: sessionId }))).toMatchObject({ code: 'not_session_buyer' });
      expect(await grpcError(h.client.exportCasefile({ actor: OPERATOR, commerceSessionId: newId('cs') }))).toMatchObject({ code: 'checkout_session_not_found' });
      for (const bad of ['{"docket_id":', '['.repeat(10_000) + ']'.repeat(10_000)]) {
        expect(await grpcError(h.client.verifyCasefile({ actor: OPERATOR, commerceSessionId: sessionId, docketJson: bad }))).toMatchObject({
          grpcCode: status.INVALID_ARGUMENT,
          code: 'casefile_unreadable',
        });
      }
      for (const hostile of ['null', '[]', '"x"', '{"entries":[{"kind":"evidence","content":{"content":1e999}}],"subject":{"evidence_head":7}}']) {
        const verdict = await h.client.verifyCasefile({ actor: as('agt_stranger'), commerceSessionId: sessionId, docketJson: hostile });
        expect(verdict.valid).toBe(false);
      }
      // Still serving after all of that.
      expect((await h.client.exportCasefile({ actor: OPERATOR, commerceSessionId: sessionId })).docketJson).toContain(sessionId);
    });
  });

  describe('offline verification with the CLI', () => {
    const repoRoot = resolve(__dirname, '../../..');
    const run = promisify(execFile);
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'commerce-casefile-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('should verify an exported commerce docket with `exchange casefile verify` (exit 0), a tampered one exit 1', async () => {
      const { sessionId } = await h.insertSession({ evidence: 3, purchase: true });
      const docket = JSON.parse((await h.client.exportCasefile({ actor: OPERATOR, commerceSessionId: sessionId })).docketJson) as Docket;
      writeFileSync(join(dir, 'good.tar.gz'), await writeArchive(docket));
      const tampered = JSON.parse(docketJson(docket)) as Docket;
      (tampered.entries[2] as unknown as { content: { seq: number } }).content.seq = 9;
      writeFileSync(join(dir, 'bad.tar.gz'), await writeArchive(tampered));

      const ok = await run('npx', ['--no-install', 'exchange', 'casefile', 'verify', join(dir, 'good.tar.gz'), '--json'], {
        cwd: repoRoot,
        env: { ...process.env, EXCHANGE_PUBLIC_KEY: h.exchangePublicKey },
      });
      const verdict = JSON.parse(ok.stdout) as { valid: boolean; checks: Array<{ ref: string; ok: boolean }> };
      expect(verdict.valid).toBe(true);
      expect(verdict.checks).toHaveLength(2 + docket.entries.length);

      const bad = (await run('npx', ['--no-install', 'exchange', 'casefile', 'verify', join(dir, 'bad.tar.gz'), '--exchange-key', h.exchangePublicKey], { cwd: repoRoot }).then(
        () => null,
        (e: unknown) => e,
      )) as { code: number; stdout: string } | null;
      expect(bad?.code).toBe(1);
      expect(bad?.stdout).toContain(`FAIL ${docket.entries[2].ref}`);
    });
  });
});
