import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { findFreePort, readMigrationFiles } from '@exchange/db';
import { createHealthClient } from '@exchange/platform';
import { createTestDatabase, spawnServiceProcess, startFakeIdentity } from '@exchange/testing';
import { REGISTRY_SERVICE_NAME } from '../src/index';
import { startRegistryHarness } from './registry-harness';

describe('registry start-up', () => {
  it('is SERVING once migrated, with every table in place; stop() closes it', async () => {
    const h = await startRegistryHarness();
    const health = createHealthClient(`127.0.0.1:${h.registry.grpcPort}`);
    try {
      expect(await health.check(REGISTRY_SERVICE_NAME)).toBe('SERVING');
      const { rows } = await h.sql.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      );
      expect(rows.map((r) => r.table_name)).toEqual([
        '_prisma_migrations',
        'artifact_acks',
        'artifact_uploads',
        'artifacts',
        'audit_log',
        'delivery_receipts',
        'objects',
        'outbox_events',
        'processed_events',
      ]);
      await h.registry.stop();
      await expect(health.check(REGISTRY_SERVICE_NAME, { deadlineMs: 1000 })).rejects.toThrow();
    } finally {
      health.close();
      await h.close();
    }
  });

  it('runs as a process from src/main.ts (configuration from the environment)', async () => {
    const db = await createTestDatabase('registry_main');
    const identity = await startFakeIdentity([]);
    const port = await findFreePort();
    const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-main-'));
    const proc = await spawnServiceProcess({
      script: 'apps/registry/src/main.ts',
      healthService: REGISTRY_SERVICE_NAME,
      port,
      env: {
        DATABASE_URL: db.url,
        LOG_LEVEL: 'silent',
        EXCHANGE_SIGNING_KEY: toBase64(generateKeyPair().privateKey),
        IDENTITY_GRPC_URL: identity.address,
        MARKET_GRPC_URL: '127.0.0.1:1',
        WALLET_LEDGER_GRPC_URL: '127.0.0.1:1',
        ARTIFACT_STORE_URL: `file://${storeDir}`,
      },
    });
    try {
      const sql = new pg.Pool({ connectionString: db.url, max: 1 });
      const { rows } = await sql.query(`SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL`);
      expect(rows[0].n).toBe(readMigrationFiles(path.join(__dirname, '..', 'prisma', 'migrations')).length);
      expect(rows[0].n).toBeGreaterThanOrEqual(2);
      await sql.end();
      expect(fs.existsSync(path.join(storeDir, '.parts'))).toBe(true);
    } finally {
      await proc.stop();
      await identity.close();
      await db.drop();
      fs.rmSync(storeDir, { recursive: true, force: true });
    }
  }, 60_000);
});
