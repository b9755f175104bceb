import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '@exchange/platform';
import { MigrationFailedError } from './migration-errors';
import { readMigrationFiles } from './migration-files';
import { planMigrations, type AppliedMigration } from './migration-plan';

/** The advisory lock key Prisma's schema engine takes, so this runner and `prisma migrate` never overlap. */
export const PRISMA_MIGRATION_LOCK_KEY = 72707369;

// Prisma's own table definition, so `prisma migrate deploy/status` reads our history as its own.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface RunMigrationsOptions {
  connectionString: string;
  migrationsDir: string;
  logger: Logger;
}

/**
 * Applies pending `<migrationsDir>/<timestamp>_<name>/migration.sql` files in name order, each in
 * its own transaction together with its `_prisma_migrations` row, under Prisma's advisory lock.
 */
export async function runMigrations(opts: RunMigrationsOptions): Promise<{ applied: string[] }> {
  const files = readMigrationFiles(opts.migrationsDir);
  const client = new pg.Client({ connectionString: opts.connectionString, application_name: 'migration-runner' });
  await client.connect();
  try {
    // Session-level lock: held across the per-migration transactions, released on unlock/disconnect.
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATION_LOCK_KEY]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const { rows } = await client.query<AppliedMigration>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at, migration_name',
      );
      const pending = planMigrations(files, rows);
      const applied: string[] = [];
      for (const migration of pending) {
        const id = randomUUID();
        await client.query('BEGIN');
        try {
          await client.query(
            'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
            [id, migration.checksum, migration.name],
          );
          await client.query(migration.sql);
          await client.query(
            'UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1',
            [id],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new MigrationFailedError(migration.name, err);
        }
        opts.logger.info({ migration: migration.name }, 'migration applied');
        applied.push(migration.name);
      }
      if (applied.length === 0) opts.logger.debug({ migrations: files.length }, 'database schema up to date');
      return { applied };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
