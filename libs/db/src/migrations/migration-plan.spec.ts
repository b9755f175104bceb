import { MigrationChecksumError, MigrationHistoryError } from './migration-errors';
import { migrationChecksum, type MigrationFile } from './migration-files';
import { planMigrations, type AppliedMigration } from './migration-plan';

const file = (name: string, sql: string): MigrationFile => ({ name, sql, checksum: migrationChecksum(sql) });
const applied = (f: MigrationFile, over: Partial<AppliedMigration> = {}): AppliedMigration => ({
  migration_name: f.name,
  checksum: f.checksum,
  finished_at: new Date(),
  rolled_back_at: null,
  ...over,
});

describe('planMigrations', () => {
  const a = file('20260101000000_a', 'CREATE TABLE a (id int);');
  const b = file('20260102000000_b', 'CREATE TABLE b (id int);');

  it('returns every file on an empty history', () => {
    expect(planMigrations([a, b], []).map((m) => m.name)).toEqual([a.name, b.name]);
  });

  it('skips applied migrations', () => {
    expect(planMigrations([a, b], [applied(a)]).map((m) => m.name)).toEqual([b.name]);
  });

  it('refuses an applied migration whose file changed, naming it', () => {
    const changed = file(a.name, 'CREATE TABLE a (id bigint);');
    expect(() => planMigrations([changed, b], [applied(a)])).toThrow(MigrationChecksumError);
    expect(() => planMigrations([changed, b], [applied(a)])).toThrow(a.name);
  });

  it('refuses a recorded migration whose folder is missing', () => {
    expect(() => planMigrations([b], [applied(a)])).toThrow(MigrationHistoryError);
    expect(() => planMigrations([b], [applied(a)])).toThrow(/folder is missing/);
  });

  it('refuses an unfinished migration left by another tool', () => {
    expect(() => planMigrations([a, b], [applied(a, { finished_at: null })])).toThrow(/never finished/);
  });

  it('re-applies a migration marked rolled back', () => {
    const row = applied(a, { finished_at: null, rolled_back_at: new Date() });
    expect(planMigrations([a, b], [row]).map((m) => m.name)).toEqual([a.name, b.name]);
  });
});

describe('migrationChecksum', () => {
  it('is the sha256 hex of the bytes, as Prisma stores it', () => {
    expect(migrationChecksum('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
