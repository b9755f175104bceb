import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MigrationFile {
  /** Folder name, e.g. `20261121183000_init`; Prisma's `migration_name`. */
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, exactly what Prisma stores in `_prisma_migrations.checksum`. */
  checksum: string;
}

export function migrationChecksum(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Migration folders (`<timestamp>_<name>/migration.sql`) in name order, as Prisma orders them. */
export function readMigrationFiles(migrationsDir: string): MigrationFile[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(migrationsDir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: migrationChecksum(bytes) };
    });
}
