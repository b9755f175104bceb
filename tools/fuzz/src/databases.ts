// The databases the booted exchange created on DATABASE_URL's server (one per service, all
// named with the run's unique prefix) are dropped at the end.
import pg from 'pg';

export async function dropDatabasesWithPrefix(serverUrl: string, prefix: string): Promise<string[]> {
  // The prefix is ours (fuzz_<hex>_); refuse anything that could match other databases.
  if (!/^fuzz_[a-z0-9]+_$/.test(prefix)) throw new Error(`refusing to drop databases by the prefix ${JSON.stringify(prefix)}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    return rows.map((r) => r.datname);
  } finally {
    await client.end().catch(() => undefined);
  }
}
