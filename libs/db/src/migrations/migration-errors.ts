/** An applied migration's migration.sql no longer matches the checksum recorded when it ran. */
export class MigrationChecksumError extends Error {
  constructor(readonly migrationName: string, readonly recorded: string, readonly actual: string) {
    super(
      `Migration ${migrationName} was modified after it was applied (recorded checksum ${recorded}, file checksum ${actual}). ` +
        'Applied migrations must never change: add a new migration instead.',
    );
    this.name = 'MigrationChecksumError';
  }
}

/** The database history and the migrations folder disagree in a way the runner must not repair. */
export class MigrationHistoryError extends Error {
  constructor(readonly migrationName: string, message: string) {
    super(message);
    this.name = 'MigrationHistoryError';
  }
}

/** A migration's SQL failed; its transaction was rolled back and nothing was recorded. */
export class MigrationFailedError extends Error {
  constructor(readonly migrationName: string, cause: unknown) {
    super(`Migration ${migrationName} failed and was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationFailedError';
  }
}
