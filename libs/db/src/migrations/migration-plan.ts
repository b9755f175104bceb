import { MigrationChecksumError, MigrationHistoryError } from './migration-errors';
import type { MigrationFile } from './migration-files';

export interface AppliedMigration {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Decides which migrations to run, refusing when history and files disagree. Pure so the
 * rules are testable without a database.
 */
export function planMigrations(files: MigrationFile[], applied: AppliedMigration[]): MigrationFile[] {
  const fileByName = new Map(files.map((file) => [file.name, file]));
  const done = new Set<string>();
  for (const row of applied) {
    if (row.rolled_back_at) continue; // Prisma's `migrate resolve --rolled-back`: may be applied again
    if (!row.finished_at) {
      throw new MigrationHistoryError(
        row.migration_name,
        `Migration ${row.migration_name} started but never finished (recorded by another tool). Resolve it before starting.`,
      );
    }
    const file = fileByName.get(row.migration_name);
    if (!file) {
      throw new MigrationHistoryError(
        row.migration_name,
        `Migration ${row.migration_name} is recorded as applied but its folder is missing from the migrations directory.`,
      );
    }
    if (file.checksum !== row.checksum) throw new MigrationChecksumError(row.migration_name, row.checksum, file.checksum);
    done.add(row.migration_name);
  }
  return files.filter((file) => !done.has(file.name));
}
