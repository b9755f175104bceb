import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OUTBOX_PRISMA_MODELS, OUTBOX_SQL } from '../src';

// Every service keeps its own outbox tables (a service never touches another's database), so the
// models and DDL are pasted into each schema and first migration; this is the one definition
// they must match, for today's services and every new one (docs/adding-a-service.md step 3); a
// service created before a statement was added runs it in a later migration.
const root = resolve(__dirname, '..', '..', '..');
const services = readdirSync(join(root, 'apps')).filter((app) => existsSync(join(root, 'apps', app, 'prisma', 'schema.prisma')));

const normalize = (sql: string) => sql.replace(/--[^\n]*\n/g, '').replace(/\s+/g, ' ').trim();
const statements = OUTBOX_SQL.split(';')
  .map((s) => normalize(s.replace(/ IF NOT EXISTS/g, '')))
  .filter((s) => s !== '');

/** The migrations from the first that creates the outbox on, as one text (a later one adds an index). */
function outboxMigrations(service: string): { first: string; sql: string } | undefined {
  const dir = join(root, 'apps', service, 'prisma', 'migrations');
  const names = readdirSync(dir).filter((n) => existsSync(join(dir, n, 'migration.sql'))).sort();
  const sqls = names.map((name) => readFileSync(join(dir, name, 'migration.sql'), 'utf8'));
  const first = sqls.findIndex((sql) => sql.includes('"outbox_events"'));
  return first < 0 ? undefined : { first: names[first], sql: sqls.slice(first).join('\n') };
}

describe('outbox tables of every service', () => {
  it('finds the services with a database', () => {
    expect(services).toEqual(expect.arrayContaining(['identity', 'market', 'registry', 'wallet-ledger']));
    expect(statements).toHaveLength(4);
  });

  it.each(services)('%s declares OUTBOX_PRISMA_MODELS verbatim in schema.prisma', (service) => {
    const schema = readFileSync(join(root, 'apps', service, 'prisma', 'schema.prisma'), 'utf8');
    expect(schema).toContain(OUTBOX_PRISMA_MODELS);
  });

  it.each(services)('%s creates them with OUTBOX_SQL in its migrations, from the first that mentions them', (service) => {
    const migrations = outboxMigrations(service);
    expect(migrations).toBeDefined();
    const sql = normalize(migrations?.sql ?? '');
    for (const statement of statements) expect({ from: migrations?.first, has: sql.includes(statement), statement }).toMatchObject({ has: true });
  });
});
