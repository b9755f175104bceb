import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OUTBOX_PRISMA_MODELS, OUTBOX_SQL } from '../src';

// Every service keeps its own outbox tables (a service never touches another's database), so the
// models and DDL are pasted into each schema and first migration; this is the one definition
// they must match, for today's services and every new one (docs/adding-a-service.md step 3).
const root = resolve(__dirname, '..', '..', '..');
const services = readdirSync(join(root, 'apps')).filter((app) => existsSync(join(root, 'apps', app, 'prisma', 'schema.prisma')));

const normalize = (sql: string) => sql.replace(/--[^\n]*\n/g, '').replace(/\s+/g, ' ').trim();
const statements = OUTBOX_SQL.split(';')
  .map((s) => normalize(s.replace(/ IF NOT EXISTS/g, '')))
  .filter((s) => s !== '');

function firstOutboxMigration(service: string): { name: string; sql: string } | undefined {
  const dir = join(root, 'apps', service, 'prisma', 'migrations');
  const names = readdirSync(dir).filter((n) => existsSync(join(dir, n, 'migration.sql'))).sort();
  for (const name of names) {
    const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
    if (sql.includes('"outbox_events"')) return { name, sql };
  }
  return undefined;
}

describe('outbox tables of every service', () => {
  it('finds the services with a database', () => {
    expect(services).toEqual(expect.arrayContaining(['identity', 'market', 'registry', 'wallet-ledger']));
    expect(statements).toHaveLength(3);
  });

  it.each(services)('%s declares OUTBOX_PRISMA_MODELS verbatim in schema.prisma', (service) => {
    const schema = readFileSync(join(root, 'apps', service, 'prisma', 'schema.prisma'), 'utf8');
    expect(schema).toContain(OUTBOX_PRISMA_MODELS);
  });

  it.each(services)('%s creates them with OUTBOX_SQL in its first migration that mentions them', (service) => {
    const migration = firstOutboxMigration(service);
    expect(migration).toBeDefined();
    const sql = normalize(migration?.sql ?? '');
    for (const statement of statements) expect({ migration: migration?.name, has: sql.includes(statement), statement }).toMatchObject({ has: true });
  });
});
