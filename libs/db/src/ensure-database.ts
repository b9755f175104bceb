import pg from 'pg';

const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505'; // two concurrent CREATE DATABASE of the same name

/** Creates `database` on the server of `adminUrl` unless it exists; safe when several processes race. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount) return;
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw err;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The same server URL pointing at another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}
