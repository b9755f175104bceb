export { runMigrations, PRISMA_MIGRATION_LOCK_KEY, type RunMigrationsOptions } from './migrations/migration-runner';
export { MigrationChecksumError, MigrationFailedError, MigrationHistoryError } from './migrations/migration-errors';
export { migrationChecksum, readMigrationFiles, type MigrationFile } from './migrations/migration-files';
export { startEmbeddedPostgres, type EmbeddedPostgresHandle, type EmbeddedPostgresOptions } from './embedded-postgres';
export { ensureDatabase, databaseUrl } from './ensure-database';
export { findFreePort, findFreePortRange, findStablePort } from './free-port';
export { createPgPool, type PgPoolOptions } from './pg-pool';
export { createPrismaClient } from './prisma-client';
export { withTransaction, isUniqueViolation, isCheckViolation, isLockTimeout, type Queryable } from './transactions';
