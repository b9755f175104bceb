import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readMigrationFiles, runMigrations } from '@exchange/db';
import { createTestDatabase, testLogger } from '@exchange/testing';
import { artifactsRepo } from '../src/artifacts/artifacts.repo';

// The artifact_uploads migration carries every artifact made before it over as its one upload,
// with its acks and delivery receipts pointing at that upload.
describe('migration artifact_uploads: backfill of the artifacts stored before it', () => {
  it('each artifact becomes one upload with the same metadata; acks and receipts move onto it', async () => {
    const migrations = path.join(__dirname, '..', 'prisma', 'migrations');
    const all = readMigrationFiles(migrations).map((m) => m.name);
    const target = all.findIndex((name) => name.endsWith('_artifact_uploads'));
    expect(target).toBeGreaterThan(0);
    const before = mkdtempSync(path.join(tmpdir(), 'registry-migrations-'));
    for (const name of all.slice(0, target)) cpSync(path.join(migrations, name), path.join(before, name), { recursive: true });
    const db = await createTestDatabase('registry_backfill');
    const sql = new pg.Pool({ connectionString: db.url, max: 1 });
    const A = `sha256:${'a'.repeat(64)}`;
    const B = `sha256:${'b'.repeat(64)}`;
    const t1 = new Date('2026-03-01T10:00:00.000Z');
    const t2 = new Date('2026-03-02T10:00:00.000Z');
    try {
      await runMigrations({ connectionString: db.url, migrationsDir: before, logger: testLogger });
      const artifact = (ref: string, size: number, media: string, contract: string | null, access: string, parties: string[], envelope: unknown, status: string, reason: string | null, by: string, at: Date) =>
        sql.query(
          `INSERT INTO artifacts (artifact_ref, size_bytes, media_type, contract_id, access, parties, envelope, status, removed_reason, uploaded_by, created_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$11)`,
          [ref, size, media, contract, access, parties, envelope === null ? null : JSON.stringify(envelope), status, reason, by, at],
        );
      const envelope = { algorithm: 'x25519-xsalsa20-poly1305', recipient_key_ids: ['k1'] };
      await artifact(A, 10, 'application/pdf', 'ctr_1', 'parties', ['t:agent:p'], envelope, 'active', null, 't:agent:seller', t1);
      await artifact(B, 20, 'text/plain', null, 'public', [], null, 'removed', 'dmca', '', t2);
      await sql.query(`INSERT INTO artifact_acks (ack_id, artifact_ref, agent_id, signature, created_at) VALUES ('ack_1', $1, 't:agent:p', 'sig', $2)`, [A, t2]);
      await sql.query(
        `INSERT INTO delivery_receipts (delivery_receipt_id, artifact_ref, agent_id, size_bytes, delivered_at, signature, signer_public_key)
         VALUES ('dlv_1', $1, 't:agent:p', 10, $2, 'sig', 'key'), ('dlv_2', $3, 't:agent:q', 20, $2, 'sig', 'key')`,
        [A, t2, B],
      );

      const { applied } = await runMigrations({ connectionString: db.url, migrationsDir: migrations, logger: testLogger });
      expect(applied).toEqual(all.slice(target));

      const [a] = await artifactsRepo.uploadsOf(sql, A);
      expect(a).toEqual({
        uploadId: expect.stringMatching(/^upl_/),
        artifactRef: A,
        sizeBytes: 10,
        mediaType: 'application/pdf',
        contractId: 'ctr_1',
        access: 'parties',
        parties: ['t:agent:p'],
        envelope,
        status: 'active',
        removedReason: null,
        uploadedBy: 't:agent:seller',
        createdAt: t1,
        updatedAt: t1,
      });
      const uploadsOfB = await artifactsRepo.uploadsOf(sql, B);
      expect(uploadsOfB).toHaveLength(1);
      expect(uploadsOfB[0]).toMatchObject({ uploadedBy: '', contractId: null, access: 'public', status: 'removed', removedReason: 'dmca', sizeBytes: 20 });
      expect((await artifactsRepo.uploadsForContract(sql, 'ctr_1')).map((u) => u.uploadId)).toEqual([a!.uploadId]);
      expect((await artifactsRepo.listAcks(sql, [a!.uploadId])).map((k) => k.ackId)).toEqual(['ack_1']);
      expect((await artifactsRepo.allReceipts(sql, [a!.uploadId])).map((r) => r.deliveryReceiptId)).toEqual(['dlv_1']);
      expect((await artifactsRepo.allReceipts(sql, [uploadsOfB[0]!.uploadId])).map((r) => r.deliveryReceiptId)).toEqual(['dlv_2']);
      const { rows: columns } = await sql.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'artifacts' ORDER BY column_name`);
      expect(columns.map((c) => c.column_name)).toEqual(['artifact_ref', 'created_at', 'removed_reason', 'size_bytes', 'status', 'updated_at']);
      // The one-upload-per-uploader rule holds for the carried-over rows too.
      await expect(
        sql.query(
          `INSERT INTO artifact_uploads (upload_id, artifact_ref, uploaded_by, contract_id, media_type, access, parties, created_at, updated_at)
           VALUES ('upl_dup', $1, '', NULL, 'text/plain', 'public', '{}', now(), now())`,
          [B],
        ),
      ).rejects.toThrow(/artifact_uploads_one_per_uploader_key/);
    } finally {
      await sql.end();
      await db.drop();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
